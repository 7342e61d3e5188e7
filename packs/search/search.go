// Package search ranks what ot.help(query="words") can show — tools,
// packs, modules, aliases, snippets — against the words an agent wrote,
// with no network and no model: BM25F (Robertson and Zaragoza's BM25 over
// weighted fields) over a document's name parts, its group (a tool's
// pack), its description, its parameter names and its group's description.
//
// Words are split at separators and at case changes ("chat.postMessage" →
// chat post message), lower-cased and stemmed with the Snowball English
// stemmer ("requests", "requested" → request). A query word also matches,
// at a discount, its synonyms from a small thesaurus of the verbs and
// nouns agents use for the same thing (list/get/show/find…,
// create/add/new…, delete/remove…, ticket/issue, meeting/event…), and two
// adjacent query words match a word that is their concatenation ("on
// call" → oncall, "look up" → lookup).
//
// An Index is built for one set of documents and read by any number of
// goroutines. Building one for 500 tools costs milliseconds (stemming
// every word), searching it about a tenth of one (BenchmarkBuild,
// BenchmarkSearch), so a caller keeps it in a Cache while its documents
// stay the same.
package search

import (
	"math"
	"slices"
	"strings"
)

// Doc is one thing a search can find. Only Name is required.
type Doc struct {
	Name   string   // its name: a tool's name (without the pack), a pack's, a module's
	Group  string   // what it belongs to: a tool's pack, a module function's module
	Text   string   // its description
	Params []string // its parameter names
	// ParamText is what its parameters' descriptions say: servers put
	// there what a tool takes ("a time such as 'in 15 minutes'").
	ParamText string
	Context   string // its group's description (a tool's pack's)
	// Weight scales its score (0 means 1): a caller's preference between
	// kinds of documents, such as tools over the packs that hold them.
	Weight float64
	// Ref is anything the caller wants back for a hit (Index.Ref).
	Ref any
}

// Hit is a document that matches, by its index in the documents given to
// New, with its score (larger is better).
type Hit struct {
	Doc   int
	Score float64
}

// The fields of a document, their weights and length normalisation.
const (
	fName = iota
	fGroup
	fText
	fParams
	fContext
	fParamText
	nFields
)

// tuning are the constants of the ranking.
type tuning struct {
	// weight: a word of the name counts three times one of the
	// description; the pack's own description counts least, as every
	// tool of the pack shares it.
	weight [nFields]float64
	// b is BM25's b per field: how much a long field is discounted.
	b           [nFields]float64
	k1          float64 // BM25's saturation of a word's frequency
	synonymRate float64 // scales what the thesaurus says a synonym's match counts
	coord       float64 // exponent of the share of query words a document matches
	// nameCover is the bonus of a document whose name the query covers
	// whole: a tool named for just what the agent asked for.
	nameCover float64
}

var defaults = tuning{
	weight:      [nFields]float64{2.0, 1.5, 1.0, 0.6, 0, 0.15},
	b:           [nFields]float64{0.3, 0, 0.75, 0.5, 0.5, 0.75},
	k1:          0.8,
	synonymRate: 0.7,
	coord:       1,
	nameCover:   0.5,
}

const (
	compoundMin   = 4    // shortest concatenation of two query words tried as one word
	maxQueryBytes = 1000 // of a query, the part that is read
	maxQueryWords = 32   // of its words, those that count
)

// Index is the searchable form of a set of documents: an inverted index
// from each term to the documents that have it. It is immutable, so any
// number of goroutines may search it.
type Index struct {
	tu       tuning
	n        int
	weights  []float64
	refs     []any
	names    [][]string           // per document: the distinct terms of its name
	postings map[string][]posting // term → the documents that have it
	st       *stemmer             // the stems of the documents' words, read-only once built
}

// posting is a document that has a term, with the term's
// length-normalised, field-weighted frequency in it.
type posting struct {
	doc int32
	tf  float32
}

// New builds the index of docs.
func New(docs []Doc) *Index { return build(docs, defaults) }

func build(docs []Doc, tu tuning) *Index {
	st := newStemmer()
	ix := &Index{tu: tu, n: len(docs), weights: make([]float64, len(docs)), refs: make([]any, len(docs)),
		names: make([][]string, len(docs)), postings: make(map[string][]posting, 2048), st: st}
	fields := make([][nFields][]string, len(docs))
	var total [nFields]float64
	var buf []string
	for i, d := range docs {
		w := d.Weight
		if w == 0 {
			w = 1
		}
		ix.weights[i] = w
		ix.refs[i] = d.Ref
		f := &fields[i]
		f[fName] = st.terms(d.Name, nil)
		ix.names[i] = slices.Compact(slices.Sorted(slices.Values(f[fName])))
		f[fGroup] = st.terms(d.Group, nil)
		f[fText] = st.terms(d.Text, nil)
		buf = buf[:0]
		for _, p := range d.Params {
			buf = st.terms(p, buf)
		}
		f[fParams] = slices.Clone(buf)
		f[fContext] = st.terms(d.Context, nil)
		f[fParamText] = st.terms(d.ParamText, nil)
		for k := range nFields {
			total[k] += float64(len(f[k]))
		}
	}
	var avg [nFields]float64
	for k := range nFields {
		avg[k] = math.Max(total[k]/math.Max(float64(len(docs)), 1), 1)
	}
	m := make(map[string]float64, 64)
	for i := range docs {
		clear(m)
		for k := range nFields {
			terms := fields[i][k]
			if len(terms) == 0 || tu.weight[k] == 0 {
				continue
			}
			norm := 1 - tu.b[k] + tu.b[k]*float64(len(terms))/avg[k]
			inc := tu.weight[k] / norm
			for _, t := range terms {
				m[t] += inc
			}
		}
		for t, tf := range m {
			ix.postings[t] = append(ix.postings[t], posting{int32(i), float32(tf)})
		}
	}
	return ix
}

// Ref is the Ref of document i.
func (ix *Index) Ref(i int) any { return ix.refs[i] }

// df is the number of documents that have a term.
func (ix *Index) df(term string) int { return len(ix.postings[term]) }

// idf is BM25's inverse document frequency, never negative.
func (ix *Index) idf(term string) float64 {
	df := float64(ix.df(term))
	return math.Log(1 + (float64(ix.n)-df+0.5)/(df+0.5))
}

// alt is one way a query word can match: a term and how much it counts.
type alt struct {
	term string
	rate float64
}

// Search ranks the documents against the query and returns the best
// limit of them (all when limit <= 0), the best first, ties in the order
// of the documents; only documents that match some word.
func (ix *Index) Search(query string, limit int) []Hit {
	groups := ix.queryTerms(query)
	if len(groups) == 0 {
		return nil
	}
	// idf per alternative, once. A synonym weighs at most what the word
	// itself would: a rare synonym ("retrieve" for "list") must not beat
	// the word the agent wrote.
	idfs := make([][]float64, len(groups))
	for g, alts := range groups {
		idfs[g] = make([]float64, len(alts))
		for a, al := range alts {
			idfs[g][a] = ix.idf(al.term)
			if a > 0 {
				idfs[g][a] = min(idfs[g][a], idfs[g][0])
			}
		}
	}
	k1 := ix.tu.k1
	wanted := map[string]bool{}
	for _, alts := range groups {
		for _, al := range alts {
			wanted[al.term] = true
		}
	}
	score := make([]float64, ix.n)
	matched := make([]int32, ix.n)
	best := make([]float64, ix.n)
	var touched, found []int32
	for g, alts := range groups {
		// A query word scores by its best way of matching, so a tool
		// that says both "list" and "get" gains nothing from it.
		touched = touched[:0]
		for a, al := range alts {
			w := al.rate * idfs[g][a]
			for _, p := range ix.postings[al.term] {
				tf := float64(p.tf)
				s := w * tf * (k1 + 1) / (tf + k1)
				if best[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				best[p.doc] = max(best[p.doc], s)
			}
		}
		for _, d := range touched {
			if score[d] == 0 {
				found = append(found, d)
			}
			score[d] += best[d]
			matched[d]++
			best[d] = 0
		}
	}
	if limit <= 0 || limit > len(found) {
		limit = len(found)
	}
	hits := make([]Hit, 0, limit)
	for _, d := range found {
		s := score[d]
		if names := ix.names[d]; len(names) > 0 && ix.tu.nameCover > 0 {
			covered := 0
			for _, t := range names {
				if wanted[t] {
					covered++
				}
			}
			s *= 1 + ix.tu.nameCover*float64(covered)/float64(len(names))
		}
		// Coordination: a document that matches more of the query's words
		// ranks above one that matches few of them strongly.
		coord := math.Pow(float64(matched[d])/float64(len(groups)), ix.tu.coord)
		h := Hit{Doc: int(d), Score: s * coord * ix.weights[d]}
		// Keep the best limit in order: a few dozen of hundreds of hits
		// are shown, so sorting them all would be wasted.
		if len(hits) == limit && !better(h, hits[limit-1]) {
			continue
		}
		i, _ := slices.BinarySearchFunc(hits, h, func(a, b Hit) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		if len(hits) == limit {
			hits = hits[:limit-1]
		}
		hits = slices.Insert(hits, i, h)
	}
	return hits
}

// better orders hits: the higher score first, then the earlier document.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.Doc < b.Doc
}

// queryTerms are the query's words, each with the terms it may match:
// its stem, its synonyms' stems at a discount; then the concatenations of
// adjacent words that are words of the index. Stop words are dropped
// (after they had their chance in a concatenation: "on call").
func (ix *Index) queryTerms(query string) [][]alt {
	// A query comes from a program, which may pass megabytes: what an
	// agent asks fits in a line, and only that much is read.
	if len(query) > maxQueryBytes {
		query = strings.ToValidUTF8(query[:maxQueryBytes], "")
	}
	words := splitWords(expandAbbreviations(query), nil)
	if len(words) > maxQueryWords {
		words = words[:maxQueryWords]
	}
	var groups [][]alt
	exact := map[string]bool{}
	var stems []string
	for i, w := range words {
		if i+1 < len(words) && len(w)+len(words[i+1]) >= compoundMin {
			if c := ix.st.stem(w + words[i+1]); ix.df(c) > 0 && !exact[c] {
				exact[c] = true
				groups = append(groups, []alt{{c, 1}})
			}
		}
		if stopWords[w] {
			continue
		}
		if s := ix.st.stem(w); !exact[s] {
			exact[s] = true
			stems = append(stems, s)
		}
	}
	// A synonym is claimed by one query word only, and never when it is
	// a query word itself: "make a new folder" must not count "create"
	// twice, nor "add a contact" count "add" again as a synonym of "new".
	claimed := map[string]bool{}
	for _, s := range stems {
		alts := []alt{{s, 1}}
		for _, syn := range synonyms[s] {
			if ix.df(syn.stem) > 0 && !exact[syn.stem] && !claimed[syn.stem] {
				claimed[syn.stem] = true
				alts = append(alts, alt{syn.stem, syn.rate * ix.tu.synonymRate})
			}
		}
		groups = append(groups, alts)
	}
	return groups
}

// expandAbbreviations spells out the short forms agents write for words
// tools spell in full ("PR" → pull request).
func expandAbbreviations(q string) string {
	words := strings.Fields(q)
	changed := false
	for i, w := range words {
		core := strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !isAlnum(r) }))
		if long, ok := abbreviations[core]; ok {
			words[i] = long
			changed = true
		}
	}
	if !changed {
		return q
	}
	return strings.Join(words, " ")
}
