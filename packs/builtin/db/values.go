package db

import (
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/onetool-dev/onetool/interp/ordered"
	"github.com/onetool-dev/onetool/packs/meter"
)

// collect reads up to maxRows rows as dicts in column order. When more
// rows come, it counts them (up to moreCountCap) and ends the list with a
// note saying how many were left out and how to get them. For SQLite
// (allBinary), every []byte is a BLOB: the driver returns text as strings.
// Each row is charged to m (the run's memory budget) as it arrives; a row
// it cannot hold ends the call with m's error.
func collect(rows *sql.Rows, maxRows int, allBinary bool, m meter.Meter, hide func(string) string) ([]any, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		return nil, err
	}
	names := columnNames(types)
	binary := make([]bool, len(types))
	dateOnly := make([]bool, len(types))
	for i, t := range types {
		binary[i] = isBinaryType(t.DatabaseTypeName())
		dateOnly[i] = strings.EqualFold(t.DatabaseTypeName(), "DATE")
	}
	out := []any{}
	size, more, bySize := 0, 0, false
	vals := make([]any, len(names))
	ptrs := make([]any, len(names))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(out) >= maxRows || size > resultBudget {
			more, bySize = 1, size > resultBudget
			break
		}
		clear(vals)
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := ordered.NewMap(len(names))
		charge := int64(0)
		for i, v := range vals {
			c, n := cell(v, binary[i] || allBinary)
			if s, ok := c.(string); ok && hide != nil {
				c = hide(s)
			}
			if t, ok := v.(time.Time); ok && dateOnly[i] && t.Equal(t.Truncate(24*time.Hour)) && t.Location() == time.UTC {
				c = t.Format(time.DateOnly) // a DATE column's date, not midnight UTC
			}
			row.Set(names[i], c)
			size += n + len(names[i]) + 4
			charge += int64(n + len(names[i]) + 4)
			if b, ok := v.([]byte); ok {
				charge += int64(len(b)) // what arrived, besides what is kept
			}
		}
		if err := m.Charge(charge); err != nil {
			return nil, &asIs{err}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if more == 0 {
		return out, nil
	}
	for more < moreCountCap && rows.Next() {
		more++
	}
	atLeast := more >= moreCountCap || rows.Err() != nil // counting stopped early: the rows shown are still whole
	count := plural(more, "more row", "more rows")
	if atLeast {
		count = "at least " + count
	}
	if bySize {
		out = append(out, fmt.Sprintf("… %s not shown: the result reached %s after %d rows. Select fewer or shorter columns, or page with LIMIT %d OFFSET %d",
			count, sizeText(resultBudget), len(out), len(out), len(out)))
	} else {
		out = append(out, fmt.Sprintf("… %s not shown: only the first %d are listed (max_rows=%d). Narrow the query (WHERE, LIMIT … OFFSET %d for the next page) or raise max_rows (up to %d)",
			count, len(out), maxRows, len(out), MaxRowsLimit))
	}
	return out, nil
}

// columnNames names result columns for dict keys: a repeated name gets
// _2, _3, … and an empty one column_N.
func columnNames(types []*sql.ColumnType) []string {
	names := make([]string, len(types))
	seen := map[string]bool{}
	for i, t := range types {
		name := t.Name()
		if name == "" {
			name = fmt.Sprintf("column_%d", i+1)
		}
		if seen[name] {
			for n := 2; ; n++ {
				if alt := fmt.Sprintf("%s_%d", name, n); !seen[alt] {
					name = alt
					break
				}
			}
		}
		seen[name] = true
		names[i] = name
	}
	return names
}

// isBinaryType reports whether a column's declared type holds bytes.
func isBinaryType(t string) bool {
	t = strings.ToUpper(t)
	for _, b := range []string{"BLOB", "BYTEA", "BINARY", "IMAGE", "RAW"} {
		if strings.Contains(t, b) {
			return true
		}
	}
	return false
}

// cell converts a scanned value for a result, with its rough size in
// bytes. BLOBs become {"base64": …, "bytes": n}; bytes that are text
// (drivers such as MySQL's return text as bytes) become strings unless the
// column is binary.
func cell(v any, binary bool) (any, int) {
	switch x := v.(type) {
	case nil:
		return nil, 4
	case int64:
		return x, 8
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64), 8
		}
		return x, 8
	case bool:
		return x, 5
	case string:
		return x, len(x)
	case []byte:
		if !binary && utf8.Valid(x) {
			return string(x), len(x)
		}
		return blob(x), len(x)*4/3 + 30
	case time.Time:
		return x.Format(time.RFC3339Nano), 30
	case int:
		return int64(x), 8
	case int32:
		return int64(x), 8
	case int16:
		return int64(x), 8
	case int8:
		return int64(x), 8
	case uint8:
		return int64(x), 8
	case uint16:
		return int64(x), 8
	case uint32:
		return int64(x), 8
	case uint64:
		if x > math.MaxInt64 {
			return strconv.FormatUint(x, 10), 20
		}
		return int64(x), 8
	case float32:
		return cell(float64(x), binary)
	}
	s := fmt.Sprint(v)
	return s, len(s)
}

// plain converts a catalog value: bytes are text there.
func plain(v any) any {
	c, _ := cell(v, false)
	return c
}

// blob is how a BLOB appears in results, and what params accept back.
func blob(b []byte) *ordered.Map {
	m := ordered.NewMap(3)
	shown := b
	if len(shown) > MaxBlobBytes {
		shown = shown[:MaxBlobBytes]
	}
	m.Set("base64", base64.StdEncoding.EncodeToString(shown))
	m.Set("bytes", int64(len(b)))
	if len(shown) < len(b) {
		m.Set("truncated", true)
	}
	return m
}

// bindValue converts one params element for a ? placeholder.
func bindValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, bool, int64, float64, string:
		return x, nil
	case int:
		return int64(x), nil
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i, nil
		}
		return x.Float64()
	case *ordered.Map:
		m := map[string]any{}
		x.Range(func(k string, v any) bool { m[k] = v; return true })
		return bindDict(m)
	case map[string]any:
		return bindDict(x)
	case []any:
		return nil, errors.New("a list cannot fill one ? placeholder: write one ? per value (IN (?, ?, ?)), or json.encode(x) for a JSON column")
	}
	return nil, fmt.Errorf("a %T cannot be bound: pass None, a bool, int, float or str", v)
}

// bindDict accepts the BLOB form {"base64": …} and refuses other dicts.
func bindDict(m map[string]any) (any, error) {
	s, ok := m["base64"].(string)
	if !ok {
		return nil, errors.New(`a dict cannot fill a ? placeholder: pass None, a bool, int, float or str (json.encode(x) for a JSON column), or {"base64": "…"} for a BLOB`)
	}
	if t, _ := m["truncated"].(bool); t {
		return nil, errors.New("this BLOB was cut when it was read (truncated: True), so it cannot be written back whole")
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the BLOB's base64 text does not decode: %v", err)
	}
	return b, nil
}

// resultBudget is MaxResultBytes; tests lower it.
var resultBudget = MaxResultBytes

func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
