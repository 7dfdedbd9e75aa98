package main

import (
	"bufio"
	"errors"
	"flag"
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
	fs := flag.NewFlagSet("tokenize", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported below, with the command's prefix
	var model, prompt, file string
	for _, name := range []string{"m", "model"} {
		fs.StringVar(&model, name, "", "model or vocab-only GGUF `file` (required)")
	}
	for _, name := range []string{"p", "prompt"} {
		fs.StringVar(&prompt, name, "", "the `text` to tokenize")
	}
	for _, name := range []string{"f", "file"} {
		fs.StringVar(&file, name, "", "read the text from `file`")
	}
	fs.Bool("stdin", false, "read the text from standard input (the default without -p or -f)")
	ids := fs.Bool("ids", false, "print only the ids, as [1, 2, 3]")
	showPieces := fs.Bool("show-pieces", false, "print each id with its piece, as '   id -> 'piece'' (the default)")
	showCount := fs.Bool("show-count", false, "print the number of tokens last")
	noBOS := fs.Bool("no-bos", false, "add no BOS/EOS even where the vocabulary asks for them")
	noParseSpecial := fs.Bool("no-parse-special", false, "tokenize special-token texts such as <|im_start|> as plain text")
	noEscape := fs.Bool("no-escape", false, "do not turn \\n, \\t, \\\\, \\xNN ... in the text into the characters")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: gpurt tokenize -m FILE [-p TEXT | -f FILE | --stdin] [--ids | --show-pieces] [--show-count]
                      [--no-bos] [--no-parse-special] [--no-escape]

Tokenizes the text as llama.cpp's llama-tokenize does: BOS where the vocabulary
asks for it, special tokens parsed, escape sequences processed. Vocab-only GGUF
files work. Without -p or -f the text is read from standard input.

flags:
`)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), `
examples:
  gpurt tokenize -m ../shared/tokenizers/ggml-vocab-llama3.gguf -p 'Hello world'
  echo 'Hello' | gpurt tokenize -m model.gguf --ids --no-bos
`)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		fmt.Fprintf(stderr, "gpurt tokenize: %v (gpurt tokenize -h shows the flags)\n", err)
		return 2
	}
	usageErr := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "gpurt tokenize: "+format+"\n", a...)
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	sources := 0
	for _, s := range [][]string{{"p", "prompt"}, {"f", "file"}, {"stdin"}} {
		if set[s[0]] || len(s) > 1 && set[s[1]] {
			sources++
		}
	}
	switch {
	case fs.NArg() > 0:
		return usageErr("unexpected argument %q", fs.Arg(0))
	case model == "":
		return usageErr("-m FILE is required")
	case sources > 1:
		return usageErr("-p, -f and --stdin are mutually exclusive")
	case *ids && *showPieces:
		return usageErr("--ids and --show-pieces are mutually exclusive")
	}
	var text string
	switch {
	case set["p"] || set["prompt"]:
		text = prompt
	case set["f"] || set["file"]:
		b, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(stderr, "gpurt tokenize:", err)
			return 1
		}
		text = string(b)
	default:
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintln(stderr, "gpurt tokenize: reading standard input:", err)
			return 1
		}
		text = string(b)
	}
	if !*noEscape {
		text = processEscapes(text)
	}
	if err := tokenizeText(model, text, tokenizer.EncodeOptions{AddSpecial: !*noBOS, ParseSpecial: !*noParseSpecial},
		*ids, *showCount, stdout); err != nil {
		fmt.Fprintln(stderr, "gpurt tokenize:", err)
		return 1
	}
	return 0
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
