package tokenizer

import "sort"

// trie finds every occurrence of a set of strings in one pass over a text.
type trie struct {
	nodes []trieNode
	first [256]bool // bytes that start some string
}

type trieNode struct {
	edges []trieEdge // sorted by byte
	value int        // the string ending here, -1 if none
}

type trieEdge struct {
	b    byte
	next int32
}

type specialMatch struct{ rank, pos int }

func (t *trie) insert(s string, value int) {
	if len(t.nodes) == 0 {
		t.nodes = append(t.nodes, trieNode{value: -1})
	}
	if s == "" {
		return
	}
	t.first[s[0]] = true
	n := 0
	for i := 0; i < len(s); i++ {
		edges := t.nodes[n].edges
		j := sort.Search(len(edges), func(k int) bool { return edges[k].b >= s[i] })
		if j < len(edges) && edges[j].b == s[i] {
			n = int(edges[j].next)
			continue
		}
		t.nodes = append(t.nodes, trieNode{value: -1})
		child := int32(len(t.nodes) - 1)
		edges = append(edges, trieEdge{})
		copy(edges[j+1:], edges[j:])
		edges[j] = trieEdge{s[i], child}
		t.nodes[n].edges = edges
		n = int(child)
	}
	t.nodes[n].value = value
}

// find lists every (value, position) where a string occurs in text and
// keep(value) holds.
func (t *trie) find(text string, keep func(int) bool) []specialMatch {
	if len(t.nodes) == 0 {
		return nil
	}
	var out []specialMatch
	for p := 0; p < len(text); p++ {
		if !t.first[text[p]] {
			continue
		}
		n := 0
		for q := p; q < len(text); q++ {
			edges := t.nodes[n].edges
			next := -1
			if len(edges) <= 8 {
				for _, e := range edges {
					if e.b == text[q] {
						next = int(e.next)
						break
					}
				}
			} else if j := sort.Search(len(edges), func(k int) bool { return edges[k].b >= text[q] }); j < len(edges) && edges[j].b == text[q] {
				next = int(edges[j].next)
			}
			if next < 0 {
				break
			}
			n = next
			if v := t.nodes[n].value; v >= 0 && keep(v) {
				out = append(out, specialMatch{v, p})
			}
		}
	}
	return out
}
