package tokenizer

import (
	"fmt"

	rt "github.com/gpurt/gpurt/runtime"
)

// StreamDecoder turns tokens into text one at a time, as they are
// generated: each call returns the text that is complete, and holds back
// the first bytes of a UTF-8 character whose rest is in later tokens.
// The text is the tokens' pieces (control tokens rendered or skipped as
// asked), with the first token's leading space dropped where the
// vocabulary prefixes one, as Decode does; Decode's clean-up of spaces
// before punctuation, which needs the tokens after, is not applied.
type StreamDecoder struct {
	t       *Tokenizer
	opts    DecodeOptions
	pending []byte
	started bool
}

// NewStreamDecoder starts a stream. opts.RemoveSpecial is ignored: a stream
// cannot know which token is its last.
func NewStreamDecoder(t *Tokenizer, opts DecodeOptions) *StreamDecoder {
	return &StreamDecoder{t: t, opts: opts}
}

// Next adds a token and returns the text it completes (often its piece,
// empty while a character is incomplete, or several tokens' worth once it
// is).
func (d *StreamDecoder) Next(id int32) (string, error) {
	if !d.t.valid(id) {
		return "", fmt.Errorf("tokenizer: stream: token %d is outside the vocabulary of %d: %w", id, d.t.NVocab(), rt.ErrOutOfRange)
	}
	p := d.t.piece(id, d.opts.RenderSpecial)
	if !d.started {
		d.started = true
		if d.t.addSpacePrefix && !d.opts.KeepLeadingSpace && len(p) > 0 && p[0] == ' ' {
			p = p[1:]
		}
	}
	d.pending = append(d.pending, p...)
	n := completePrefix(d.pending)
	out := string(d.pending[:n])
	d.pending = append(d.pending[:0], d.pending[n:]...)
	return out, nil
}

// Flush returns the bytes still held back (an incomplete character at the
// end of the stream), as they are.
func (d *StreamDecoder) Flush() string {
	out := string(d.pending)
	d.pending = d.pending[:0]
	return out
}

// completePrefix is the length of b without a trailing incomplete UTF-8
// character: a lead byte followed by fewer continuation bytes than it needs.
// Bytes that can never form a character are passed on as they are.
func completePrefix(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-4; i-- {
		c := b[i]
		if c&0xC0 == 0x80 {
			continue // a continuation byte: look for its lead
		}
		if need := utf8Len(c); c < 0xF8 && len(b)-i < need {
			return i
		}
		return len(b)
	}
	return len(b)
}
