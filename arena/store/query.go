package store

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// query builds a list's SELECT: conditions added only for the filter fields that are set, and a
// keyset page on an id column. Every list (matches, bots) builds its query here, so a filter
// means the same in each and an argument always sits beside its placeholder.
type query struct {
	text strings.Builder
	args []any
}

// newQuery starts a query with its SELECT ... WHERE head (conditions follow as AND clauses).
func newQuery(head string) *query {
	q := &query{}
	q.text.WriteString(head)
	return q
}

// and adds a condition with its arguments.
func (q *query) and(cond string, args ...any) {
	q.text.WriteString(" AND ")
	q.text.WriteString(cond)
	q.args = append(q.args, args...)
}

// textIs adds cond with v when v is given.
func (q *query) textIs(cond, v string) {
	if v != "" {
		q.and(cond, v)
	}
}

// idIs adds cond with id when it is set (ids start at 1).
func (q *query) idIs(cond string, id int64) {
	if id > 0 {
		q.and(cond, id)
	}
}

// since and until bound a time column, From <= col < To; a zero time is no bound.
func (q *query) since(col string, t time.Time) {
	if !t.IsZero() {
		q.and(col+" >= ?", t.UTC().Format(timeKey))
	}
}

func (q *query) until(col string, t time.Time) {
	if !t.IsZero() {
		q.and(col+" < ?", t.UTC().Format(timeKey))
	}
}

// page ends the query with a keyset page of limit rows on col (a stable cursor, unlike an
// offset), newest first: before > 0 keeps the ids below it, after > 0 those above it and then
// takes the page nearest it, read ascending: ascending says the rows must be turned newest first
// (newestFirst).
func (q *query) page(col string, before, after int64, limit int) (ascending bool) {
	q.idIs(col+" < ?", before)
	q.idIs(col+" > ?", after)
	order := "DESC"
	if after > 0 {
		order = "ASC"
	}
	fmt.Fprintf(&q.text, " ORDER BY %s %s LIMIT ?", col, order)
	q.args = append(q.args, limit)
	return after > 0
}

// String is the query's text.
func (q *query) String() string { return q.text.String() }

// newestFirst turns a page read ascending (page's ascending) newest first.
func newestFirst[T any](rows []T, ascending bool) []T {
	if ascending {
		slices.Reverse(rows)
	}
	return rows
}
