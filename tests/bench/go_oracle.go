// The independent judge of tests/bench/history_go.py: go/ast's reading of a named Go definition.
//
// tether anchors with tree-sitter; this reads the same files with Go's own parser (a different
// parser, a different tree), so a verdict is never judged by the code that made it. Standard
// library only: history_go.py builds it once into its cache dir.
//
// One long-lived process, one JSON request per stdin line, one JSON answer per stdout line (the
// protocol of js_oracle.js):
//
//	{"op":"fp","path":P,"queries":[{"name":N,"first":F,"last":L},...]}
//	    -> {"ok":true,"answers":[sha1-or-null,...],"error":null|"parse error: ..."}
//	{"op":"all","paths":[P,...]}  -> {"ok":true,"counts":{sha1:count,...}}
//	{"op":"reset"}                -> {"ok":true}   (forget parsed files: send after a checkout)
//	{"op":"text",...as fp...}     -> the written-out nodes, not their sha1: to read why two differ
//
// A fingerprint is the sha1 of the node written out by reflection: node type and field names,
// identifiers, operator tokens, literals by kind and exact constant value (`0x1F` is `31`, a raw
// string is the interpreted one it equals); positions, comments and parentheses dropped (the tree
// already says how operands group), the definition's own name replaced by "_" (a rename is
// tether's to follow). A method's receiver stays (a value receiver turned pointer is a change)
// but for its type's name, a name like the method's own: a renamed type's methods follow it.
// What a spec's own text does not show is folded in: `//go:` directives in the doc comment
// (go:embed, go:noinline), const or var, the expression list an implicit const repeats (`B` in
// `const ( A T = f(iota); B )` is `B T = f(iota)`), and its iota wherever its expression uses it.
package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
)

type candidate struct {
	name        string
	line, end   int
	span        int
	fp          func() string
	fingerprint string // fp(), once asked
}

func (c *candidate) sha() string {
	if c.fingerprint == "" {
		sum := sha1.Sum([]byte(c.fp()))
		c.fingerprint = hex.EncodeToString(sum[:])
	}
	return c.fingerprint
}

type entry struct {
	cands []*candidate
	err   string
	mtime int64
	size  int64
	ino   uint64
}

var (
	posType     = reflect.TypeOf(token.Pos(0))
	tokenType   = reflect.TypeOf(token.ILLEGAL)
	commentType = reflect.TypeOf((*ast.CommentGroup)(nil))
	objectType  = reflect.TypeOf((*ast.Object)(nil))
	scopeType   = reflect.TypeOf((*ast.Scope)(nil))
	// positions that carry meaning: `type A = B` is an alias, `f(xs...)` spreads
	meaningfulPos = map[string]bool{"TypeSpec.Assign": true, "CallExpr.Ellipsis": true}
)

// canon writes node with the identifiers in holes (the definition's own name, a receiver's type) as "_".
func canon(node ast.Node, holes ...*ast.Ident) string {
	var b strings.Builder
	write(&b, reflect.ValueOf(node), holes)
	return b.String()
}

func write(b *strings.Builder, v reflect.Value, holes []*ast.Ident) {
	switch v.Kind() {
	case reflect.Interface, reflect.Ptr:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		switch n := v.Interface().(type) {
		case *ast.ParenExpr:
			write(b, reflect.ValueOf(n.X), holes)
			return
		case *ast.Ident:
			for _, h := range holes {
				if n == h {
					b.WriteString("_")
					return
				}
			}
		case *ast.BasicLit:
			b.WriteString("BasicLit{" + n.Kind.String() + ":" + literal(n) + "}")
			return
		}
		write(b, v.Elem(), holes)
	case reflect.Struct:
		t := v.Type()
		b.WriteString(t.Name() + "{")
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			switch f.Type {
			case commentType, objectType, scopeType:
				continue
			case posType:
				if meaningfulPos[t.Name()+"."+f.Name] {
					fmt.Fprintf(b, "%s:%t;", f.Name, v.Field(i).Interface().(token.Pos).IsValid())
				}
				continue
			}
			b.WriteString(f.Name + ":")
			write(b, v.Field(i), holes)
			b.WriteString(";")
		}
		b.WriteString("}")
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			write(b, v.Index(i), holes)
			b.WriteString(",")
		}
		b.WriteString("]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	case reflect.Bool:
		fmt.Fprintf(b, "%t", v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == tokenType {
			b.WriteString(strconv.Quote(token.Token(v.Int()).String()))
		} else {
			fmt.Fprintf(b, "%d", v.Int())
		}
	default:
		panic("go_oracle: no rule for " + v.Type().String())
	}
}

// literal is a literal's exact value: the spelling of one value is formatting, its kind is not.
func literal(lit *ast.BasicLit) string {
	if c := constant.MakeFromLiteral(lit.Value, lit.Kind, 0); c.Kind() != constant.Unknown {
		return c.ExactString()
	}
	return strconv.Quote(lit.Value)
}

// directives: the `//go:` lines of doc comments, which change what the compiler does.
func directives(docs ...*ast.CommentGroup) string {
	out := ""
	for _, doc := range docs {
		if doc != nil {
			for _, c := range doc.List {
				if strings.HasPrefix(c.Text, "//go:") {
					out += strconv.Quote(c.Text) + ";"
				}
			}
		}
	}
	return out
}

// receiverType: the name of a method's receiver type, through `*`, parentheses and type arguments.
func receiverType(d *ast.FuncDecl) *ast.Ident {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return nil
	}
	t := d.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x
		default:
			return nil
		}
	}
}

// usesIota: only then does a const's index in its group change its value.
func usesIota(nodes []ast.Expr) bool {
	found := false
	for _, n := range nodes {
		ast.Inspect(n, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && id.Name == "iota" {
				found = true
			}
			return !found
		})
	}
	return found
}

// candidates: every definition tether anchors in Go, with its first and last line.
func candidates(fset *token.FileSet, file *ast.File) []*candidate {
	var out []*candidate
	add := func(id *ast.Ident, node ast.Node, fp func() string) {
		out = append(out, &candidate{name: id.Name, line: fset.Position(node.Pos()).Line,
			end: fset.Position(node.End()).Line, span: int(node.End() - node.Pos()), fp: fp})
	}
	docs := map[*ast.TypeSpec]*ast.CommentGroup{} // an ungrouped `type` keeps its doc on the GenDecl
	for _, decl := range file.Decls {
		g, ok := decl.(*ast.GenDecl)
		grouped := ok && g.Lparen.IsValid()
		if ok && g.Tok == token.TYPE && !grouped && len(g.Specs) == 1 {
			docs[g.Specs[0].(*ast.TypeSpec)] = g.Doc
		}
		if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
			continue
		}
		var typ ast.Expr // a const spec without values repeats the last list given, and its type
		var values []ast.Expr
		for i, s := range g.Specs {
			spec := s.(*ast.ValueSpec)
			if len(spec.Values) > 0 {
				typ, values = spec.Type, spec.Values
			}
			header := g.Tok.String() + ";" + directives(spec.Doc)
			if !grouped {
				header += directives(g.Doc)
			}
			if g.Tok == token.CONST {
				if len(spec.Values) == 0 {
					header += "repeats:" + canon(&ast.ValueSpec{Type: typ, Values: values}) + ";"
				}
				if usesIota(values) {
					header += "iota:" + strconv.Itoa(i) + ";"
				}
			}
			for _, id := range spec.Names {
				id, spec, header := id, spec, header
				add(id, spec, func() string { return header + canon(spec, id) })
			}
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch d := n.(type) {
		case *ast.FuncDecl:
			add(d.Name, d, func() string { return directives(d.Doc) + canon(d, d.Name, receiverType(d)) })
		case *ast.TypeSpec:
			add(d.Name, d, func() string { return directives(d.Doc, docs[d]) + canon(d, d.Name) })
		case *ast.InterfaceType:
			for _, f := range d.Methods.List {
				if _, ok := f.Type.(*ast.FuncType); ok {
					for _, id := range f.Names {
						id, f := id, f
						add(id, f, func() string { return canon(f, id) })
					}
				}
			}
		}
		return true
	})
	return out
}

var cache = map[string]*entry{}

func load(path string) *entry {
	st, err := os.Stat(path)
	if err != nil {
		return &entry{err: "missing"}
	}
	ino := st.Sys().(*syscall.Stat_t).Ino
	if hit := cache[path]; hit != nil && hit.mtime == st.ModTime().UnixNano() && hit.size == st.Size() && hit.ino == ino {
		return hit
	}
	e := &entry{mtime: st.ModTime().UnixNano(), size: st.Size(), ino: ino}
	fset := token.NewFileSet()
	// comments for the directives; a partial tree (a parse error) is no ground truth
	file, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		e.err = "parse error: " + err.Error()
	} else {
		e.cands = candidates(fset, file)
	}
	cache[path] = e
	return e
}

// locate: the outermost definition called name that starts within first..last and ends by last,
// tether's line range checked by go/ast's own idea of where the definition is.
func locate(e *entry, name string, first, last int) *candidate {
	var best *candidate
	for _, c := range e.cands {
		if c.name != name || c.line < first || c.line > last || c.end > last {
			continue
		}
		if best == nil || c.span > best.span {
			best = c
		}
	}
	return best
}

type query struct {
	Name  string `json:"name"`
	First int    `json:"first"`
	Last  int    `json:"last"`
}

type request struct {
	Op      string   `json:"op"`
	Path    string   `json:"path"`
	Paths   []string `json:"paths"`
	Queries []query  `json:"queries"`
}

func handle(req request) map[string]any {
	switch req.Op {
	case "fp", "text":
		e := load(req.Path)
		answers := make([]*string, len(req.Queries))
		for i, q := range req.Queries {
			if c := locate(e, q.Name, q.First, q.Last); c != nil {
				s := c.sha()
				if req.Op == "text" {
					s = c.fp()
				}
				answers[i] = &s
			}
		}
		var errv any
		if e.err != "" {
			errv = e.err
		}
		return map[string]any{"ok": true, "error": errv, "answers": answers}
	case "all":
		counts := map[string]int{}
		for _, p := range req.Paths {
			for _, c := range load(p).cands {
				counts[c.sha()]++
			}
		}
		return map[string]any{"ok": true, "counts": counts}
	case "reset":
		cache = map[string]*entry{}
		return map[string]any{"ok": true}
	}
	return map[string]any{"ok": false, "error": "unknown op " + req.Op}
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := json.NewEncoder(os.Stdout) // one line per answer: Encode ends each with "\n"
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			var req request
			var ans map[string]any
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				ans = map[string]any{"ok": false, "error": jerr.Error()}
			} else {
				ans = answer(req)
			}
			if werr := out.Encode(ans); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// answer turns a panic (a node the writer has no rule for) into an error answer, as node's try does.
func answer(req request) (ans map[string]any) {
	defer func() {
		if r := recover(); r != nil {
			ans = map[string]any{"ok": false, "error": fmt.Sprint(r)}
		}
	}()
	return handle(req)
}
