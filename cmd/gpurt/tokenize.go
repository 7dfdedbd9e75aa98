package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gpurt/gpurt/gguf"
	"github.com/gpurt/gpurt/tokenizer"
)

func init() {
	register("tokenize", "print the token ids of a text with a GGUF model's tokenizer (like llama-tokenize)", runTokenize)
}

func runTokenize(args []string) int {
	return tokenizeMain(args, os.Stdin, os.Stdout, os.Stderr)
}

func tokenizeMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := newCLI("tokenize", "-m FILE [-p TEXT | -f FILE | --stdin] [--ids | --show-pieces] [--show-count] [--no-bos] [--no-parse-special] [--no-escape]",
		"gpurt tokenize -m ../shared/tokenizers/ggml-vocab-llama3.gguf -p 'Hello world'",
		"echo 'Hello' | gpurt tokenize -m model.gguf --ids --no-bos")
	c.setOutput(stdout, stderr)
	model := c.String("m,model", "", "model or vocab-only GGUF `FILE` (required)")
	prompt := c.String("p,prompt", "", "the `TEXT` to tokenize")
	file := c.String("f,file", "", "read the text from `FILE`")
	c.Bool("stdin", false, "read the text from standard input (the default without -p or -f)")
	ids := c.Bool("ids", false, "print only the ids, as [1, 2, 3]")
	showPieces := c.Bool("show-pieces", false, "print each id with its piece, as llama-tokenize does by default (the default)")
	showCount := c.Bool("show-count", false, "print the number of tokens last")
	noBOS := c.Bool("no-bos", false, "add no BOS/EOS even where the vocabulary asks for them")
	noParseSpecial := c.Bool("no-parse-special", false, "tokenize special-token texts such as <|im_start|> as plain text")
	noEscape := c.Bool("no-escape", false, "do not turn \\n, \\t, \\\\, \\xNN ... in the text into the characters")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	sources := 0
	for _, names := range []string{"p,prompt", "f,file", "stdin"} {
		if c.Set(names) {
			sources++
		}
	}
	switch {
	case *model == "":
		return c.Usagef("-m/--model FILE is required")
	case sources > 1:
		return c.Usagef("-p, -f and --stdin are mutually exclusive")
	case *ids && *showPieces:
		return c.Usagef("--ids and --show-pieces are mutually exclusive")
	}
	if err := checkModelPath(*model); err != nil {
		return c.Usagef("-m: %v", err)
	}
	if c.Set("f,file") {
		if err := checkModelPath(*file); err != nil {
			return c.Usagef("-f: %v", err)
		}
	}
	var text string
	switch {
	case c.Set("p,prompt"):
		text = *prompt
	case c.Set("f,file"):
		b, err := os.ReadFile(*file)
		if err != nil {
			return c.Fail(err)
		}
		text = string(b)
	default:
		b, err := io.ReadAll(stdin)
		if err != nil {
			return c.Fail(fmt.Errorf("reading standard input: %w", err))
		}
		text = string(b)
	}
	if !*noEscape {
		text = processEscapes(text)
	}
	if err := tokenizeText(*model, text, tokenizer.EncodeOptions{AddSpecial: !*noBOS, ParseSpecial: !*noParseSpecial},
		*ids, *showCount, stdout); err != nil {
		return c.Fail(err)
	}
	return exitOK
}

func tokenizeText(model, text string, opts tokenizer.EncodeOptions, idsOnly, count bool, stdout io.Writer) error {
	f, err := gguf.Open(model)
	if err != nil {
		return err
	}
	defer f.Close()
	tok, err := tokenizer.Open(f)
	if err != nil {
		return err
	}
	toks, err := tok.Encode(text, opts)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(stdout)
	if idsOnly {
		out.WriteByte('[')
		for i, id := range toks {
			if i > 0 {
				out.WriteString(", ")
			}
			out.WriteString(strconv.Itoa(int(id)))
		}
		out.WriteString("]\n")
	} else {
		for _, id := range toks {
			fmt.Fprintf(out, "%6d -> '%s'\n", id, tok.RenderPiece(id))
		}
	}
	if count {
		fmt.Fprintf(out, "Total number of tokens: %d\n", len(toks))
	}
	return out.Flush()
}

// processEscapes turns \n, \r, \t, \', \", \\ and \xNN into the characters,
// as llama.cpp's string_process_escapes; other backslashes stay.
func processEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch c := s[i+1]; c {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '\'', '"', '\\':
			b.WriteByte(c)
		case 'x':
			if i+3 < len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+4], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 3
					continue
				}
			}
			b.WriteString(`\x`)
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}
