package server

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/botarena/arena/arena/store"
)

// Organiser tools: accounts (list, disable, reset a password, roles), a bot's code for
// plagiarism checks, the standings export, the front page's announcement, and the audit log
// that records every organiser action. Everything here answers 403 to anyone but an organiser.

// adminPages adds the organiser's pages (inside the pages' group: CSRF-checked).
func (s *Server) adminPages(r chi.Router) {
	r.Get("/bots", s.pageBotList)
	r.Get("/organiser/users", s.pageUsers)
	r.Post("/organiser/users/{id}/{op:disable|enable|password|role}", s.postUserOp)
	r.Get("/organiser/bots/{id}/code", s.pageCode)
	r.Post("/organiser/announcement", s.postAnnouncement)
	r.Get("/organiser/audit", s.pageAudit)
	r.Get("/me/webhook", s.pageWebhook)
	r.Post("/me/webhook", s.postWebhook)
}

// adminAPI adds the organiser's calls and the lists under /api/v1.
func (s *Server) adminAPI(r chi.Router) {
	r.Get("/bots", s.apiBotList)
	r.Get("/announcement", s.apiAnnouncement)
	r.Route("/admin", func(r chi.Router) {
		r.Get("/users", s.apiUsers)
		r.Post("/users/{id}/{op:disable|enable|password|role}", s.postUserOp)
		r.Get("/bots/{id}/code", s.apiCode)
		r.Get("/games/{game}/standings", s.apiStandings)
		r.Get("/announcement", s.apiAnnouncement)
		r.Put("/announcement", s.postAnnouncement)
		r.Post("/announcement", s.postAnnouncement)
		r.Get("/audit", s.apiAudit)
	})
	r.Get("/me/webhook", s.apiWebhook)
	r.Put("/me/webhook", s.putWebhook)
	r.Delete("/me/webhook", s.deleteWebhook)
}

// ---- the audit log ----

// auditNote is what a handler says about the organiser action it did; the audit middleware
// writes it once the answer succeeded.
type auditNote struct{ action, target, detail string }

type auditKeyT struct{}

// noteAudit names the organiser action the request did (a no-op for anyone else).
func noteAudit(r *http.Request, action, target, detail string) {
	if n, ok := r.Context().Value(auditKeyT{}).(*auditNote); ok {
		n.action, n.target, n.detail = action, target, detail
	}
}

// organiserActions names the organiser-only calls that do not note themselves, by route
// (pages and the API share one name). Everything an organiser changes is here or notes itself.
var organiserActions = map[string]string{
	"POST /bots/{id}/disable":                 "bot.disable",
	"POST /bots/{id}/enable":                  "bot.enable",
	"POST /matches/{id}/replay":               "match.replay",
	"POST /organiser/tournaments":             "tournament.create",
	"POST /tournaments":                       "tournament.create",
	"POST /organiser/tournaments/{id}/cancel": "tournament.cancel",
	"POST /tournaments/{id}/cancel":           "tournament.cancel",
	"POST /organiser/ladder":                  "ladder.switch",
	"POST /ladder":                            "ladder.switch",
}

// auditedFields are the form fields an audit entry may quote (never a password or a token).
var auditedFields = []string{"running", "game", "name", "reps", "role"}

// auditOrganiser writes every successful organiser action to the audit log.
func (s *Server) auditOrganiser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := current(r)
		if !ok || u.Role != store.RoleOrganiser || r.URL.Path == "/events" {
			next.ServeHTTP(w, r)
			return
		}
		note := &auditNote{}
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r.WithContext(context.WithValue(r.Context(), auditKeyT{}, note)))
		if st := ww.Status(); st >= 400 {
			return
		}
		if note.action == "" {
			pattern := strings.TrimPrefix(chi.RouteContext(r.Context()).RoutePattern(), "/api/v1")
			note.action = organiserActions[r.Method+" "+pattern]
			if note.action == "" {
				return
			}
			note.target = r.URL.Path
			var d []string
			for _, k := range auditedFields {
				if v := r.PostFormValue(k); v != "" {
					d = append(d, k+"="+clip(v))
				}
			}
			if q := r.URL.RawQuery; q != "" {
				d = append(d, clip(q))
			}
			note.detail = strings.Join(d, " ")
		}
		err := s.st.Audit(context.WithoutCancel(r.Context()), store.AuditEntry{ActorID: u.ID, Actor: u.Name, Action: note.action, Target: note.target, Detail: note.detail})
		if err != nil {
			s.opt.Logger.Printf("audit log: %v", err)
		}
	})
}

func (s *Server) auditPage(r *http.Request) ([]store.AuditEntry, page, error) {
	lq := readListQuery(r, "before", "limit")
	before := lq.id("before")
	limit := lq.limit()
	if lq.err != nil {
		return nil, page{}, lq.err
	}
	es, err := s.st.AuditLog(r.Context(), before, limit)
	es, p := backPage(r, es, func(e store.AuditEntry) int64 { return e.ID }, limit, before)
	return es, p, err
}

func (s *Server) apiAudit(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	es, p, err := s.auditPage(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"audit": es, "pages": p})
}

func (s *Server) pageAudit(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	es, p, err := s.auditPage(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	s.render(w, r, "audit", map[string]any{"Title": "Audit log", "Entries": es, "Pages": p})
}

// ---- users ----

func (s *Server) userPage(r *http.Request) (string, []store.UserRow, page, error) {
	lq := readListQuery(r, "name", "before", "limit")
	name := lq.q.Get("name")
	if name != "" && len(name) > 40 {
		lq.fail("name=%q: give part of a user name, at most 40 characters", clip(name))
	}
	before := lq.id("before")
	limit := lq.limit()
	if lq.err != nil {
		return name, nil, page{}, lq.err
	}
	us, err := s.st.UserPage(r.Context(), name, before, limit)
	us, p := backPage(r, us, func(u store.UserRow) int64 { return u.ID }, limit, before)
	return name, us, p, err
}

func (s *Server) apiUsers(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	_, us, p, err := s.userPage(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"users": us, "pages": p})
}

func (s *Server) pageUsers(w http.ResponseWriter, r *http.Request) {
	s.renderUsers(w, r, nil)
}

func (s *Server) renderUsers(w http.ResponseWriter, r *http.Request, extra map[string]any) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	name, us, p, err := s.userPage(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	data := map[string]any{"Title": "Users", "Users": us, "Pages": p, "Name": name}
	for k, v := range extra {
		data[k] = v
	}
	s.render(w, r, "users", data)
}

// userOp is one change an organiser makes to an account; it returns what the API answers.
func (s *Server) userOp(r *http.Request, me store.User, id int64, op, role string) (map[string]any, error) {
	ctx := r.Context()
	u, err := s.st.UserByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if u.Name == houseUser {
		return nil, bad(http.StatusConflict, "the house account owns the house bots and cannot log in: it is not changed")
	}
	if u.ID == me.ID && op != "password" {
		return nil, bad(http.StatusConflict, "an organiser does not %s their own account (that could leave nobody to undo it): ask another organiser", op)
	}
	target := fmt.Sprintf("user %d (%s)", u.ID, u.Name)
	switch op {
	case "disable", "enable":
		if err := s.st.SetUserDisabled(ctx, id, op == "disable"); err != nil {
			return nil, err
		}
		noteAudit(r, "user."+op, target, "")
		return map[string]any{"user_id": id, "disabled": op == "disable"}, nil
	case "password":
		pw := "reset-" + randomToken()[:20]
		hash, err := s.hashPassword(ctx, pw)
		if err != nil {
			return nil, err
		}
		if err := s.st.SetPassword(ctx, id, hash); err != nil {
			return nil, err
		}
		ended, revoked, err := s.logoutEverywhere(r, u, "", true)
		if err != nil {
			return nil, err
		}
		noteAudit(r, "user.password-reset", target, fmt.Sprintf("%d sessions ended, %d tokens revoked", ended, revoked))
		return map[string]any{"user_id": id, "password": pw, "sessions_ended": ended, "tokens_revoked": revoked}, nil
	case "role":
		if role != store.RoleAuthor && role != store.RoleOrganiser {
			return nil, bad(http.StatusBadRequest, "role %q: give author or organiser", clip(role))
		}
		if err := s.st.SetRoleByID(ctx, id, role); err != nil {
			return nil, err
		}
		noteAudit(r, "user.role", target, "role="+role)
		return map[string]any{"user_id": id, "role": role}, nil
	}
	return nil, bad(http.StatusNotFound, "no such operation %q", op)
}

func (s *Server) postUserOp(w http.ResponseWriter, r *http.Request) {
	me, ok := s.needOrganiser(w, r)
	if !ok {
		return
	}
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such user: GET /api/v1/admin/users lists them")
		return
	}
	op := chi.URLParam(r, "op")
	role := r.PostFormValue("role")
	if isAPI(r) && op == "role" {
		var req struct {
			Role string `json:"role"`
		}
		if err := readJSON(r, &req); err != nil {
			s.answer(w, r, err)
			return
		}
		role = req.Role
	}
	out, err := s.userOp(r, me, id, op, role)
	if errors.Is(err, errBusy) {
		s.busy(w, r, err.Error())
		return
	}
	if err != nil {
		s.answer(w, r, err)
		return
	}
	if isAPI(r) {
		writeJSON(w, http.StatusOK, out)
		return
	}
	if pw, ok := out["password"].(string); ok {
		// Shown once, on this answer only.
		s.renderUsers(w, r, map[string]any{"NewPassword": pw, "ResetID": id})
		return
	}
	http.Redirect(w, r, "/organiser/users", http.StatusSeeOther)
}

// ---- a bot's code ----

// Bounds of the code view: a file is shown up to CodeFileBound bytes, at most CodeTotalBound in
// all and CodeMaxFiles files; the rest is listed with its size.
const (
	CodeFileBound  = 256 << 10
	CodeTotalBound = 2 << 20
	CodeMaxFiles   = 500
)

// CodeFile is one file of a version, as text (never run, never rendered as HTML).
type CodeFile struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	// Text is the file's text, cut at CodeFileBound; empty when Note says why it is not shown.
	Text string `json:"text,omitempty"`
	Cut  bool   `json:"cut,omitempty"`
	Note string `json:"note,omitempty"`
}

// CodeView is a bot's versions with their hashes and one version's files.
type CodeView struct {
	Bot      store.WebBot    `json:"bot"`
	Versions []store.Version `json:"versions"`
	Version  store.Version   `json:"version"`
	Files    []CodeFile      `json:"files"`
	// Gone says why no files are shown (collected, a house bot).
	Gone string `json:"gone,omitempty"`
}

func (s *Server) codeView(r *http.Request) (CodeView, error) {
	var cv CodeView
	id, ok := idParam(r, "id")
	if !ok {
		return cv, bad(http.StatusNotFound, "no such bot")
	}
	lq := readListQuery(r, "version")
	n := 0
	if v := lq.q.Get("version"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			lq.fail("version=%q: give a version number (1, 2, ...)", clip(v))
		}
	}
	if lq.err != nil {
		return cv, lq.err
	}
	b, err := s.st.WebBotByID(r.Context(), id)
	if err != nil {
		return cv, err
	}
	vs, err := s.st.Versions(r.Context(), id)
	if err != nil {
		return cv, err
	}
	cv.Bot, cv.Versions, cv.Files = b, vs, []CodeFile{}
	if cv.Versions == nil {
		cv.Versions = []store.Version{}
	}
	for _, v := range vs {
		if (n == 0 && cv.Version.ID == 0) || v.N == n {
			cv.Version = v
		}
	}
	switch {
	case len(vs) == 0:
		cv.Gone = "this bot has no versions"
	case cv.Version.ID == 0:
		return cv, bad(http.StatusNotFound, "bot %d has no version %d", id, n)
	case b.House != "":
		cv.Gone = "a house bot is the arena's own Go code (bots/house), not an upload"
	case !cv.Version.Collected.IsZero() || cv.Version.Dir == "":
		cv.Gone = "this version's files were collected; its content hash stays"
	default:
		cv.Files, err = readCode(cv.Version.Dir)
		if errors.Is(err, os.ErrNotExist) {
			cv.Gone, err = "this version's files were collected; its content hash stays", nil
		}
	}
	noteAudit(r, "code.view", fmt.Sprintf("bot %d (%s by %s) v%d", b.ID, b.Name, b.Author, cv.Version.N), cv.Version.Hash)
	return cv, err
}

// readCode reads a version's files as text within the code view's bounds. Only regular files
// are read (WalkDir does not follow links), each through a bounded reader.
func readCode(dir string) ([]CodeFile, error) {
	var out []CodeFile
	var total int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		f := CodeFile{Path: filepath.ToSlash(rel)}
		info, err := d.Info()
		if err != nil {
			return err
		}
		f.Bytes = info.Size()
		switch {
		case !d.Type().IsRegular():
			f.Note = "not a regular file"
		case len(out) >= CodeMaxFiles:
			f.Note = fmt.Sprintf("not shown: over %d files", CodeMaxFiles)
		case total >= CodeTotalBound:
			f.Note = fmt.Sprintf("not shown: over %d KiB shown in all", CodeTotalBound>>10)
		default:
			b, err := readPrefix(p, min(CodeFileBound, CodeTotalBound-total))
			if err != nil {
				return err
			}
			cut := int64(len(b)) < f.Bytes
			if cut {
				b = trimRune(b)
			}
			if !utf8.Valid(b) || strings.ContainsRune(string(b), 0) {
				f.Note = "not shown: binary"
			} else {
				total += int64(len(b))
				f.Text, f.Cut = string(b), cut
			}
		}
		if len(out) < CodeMaxFiles*2 {
			out = append(out, f)
		}
		return nil
	})
	return out, err
}

// trimRune drops a rune cut in half at the end of a prefix.
func trimRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
		b = b[:len(b)-1]
	}
	return b
}

func readPrefix(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

func (s *Server) apiCode(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	cv, err := s.codeView(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cv)
}

func (s *Server) pageCode(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	cv, err := s.codeView(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	s.render(w, r, "code", map[string]any{"Title": "Code of " + cv.Bot.Name, "C": cv})
}

// ---- standings export ----

// StandingRow is one entry of the standings export: its rank and the version that earned it.
type StandingRow struct {
	BoardRow
	VersionID   int64  `json:"version_id"`
	ContentHash string `json:"content_hash"`
}

func (s *Server) standings(ctx context.Context, g string) ([]StandingRow, error) {
	rows, err := s.leaderboard(ctx, g)
	if err != nil {
		return nil, err
	}
	vs, err := s.st.Active(ctx, g)
	if err != nil {
		return nil, err
	}
	byBot := map[int64]store.Version{}
	for _, v := range vs {
		byBot[v.BotID] = v
	}
	out := make([]StandingRow, len(rows))
	for i, row := range rows {
		v := byBot[row.BotID]
		out[i] = StandingRow{BoardRow: row, VersionID: v.ID, ContentHash: v.Hash}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Rank < out[b].Rank })
	return out, nil
}

func (s *Server) apiStandings(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	g := chi.URLParam(r, "game")
	if !knownGame(g) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no game %q: GET /api/v1/games lists them", g))
		return
	}
	lq := readListQuery(r, "format")
	format := lq.oneOf("format", "json", "csv")
	if lq.err != nil {
		s.answer(w, r, lq.err)
		return
	}
	rows, err := s.standings(r.Context(), g)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	noteAudit(r, "standings.export", g, "format="+cmp(format, "json"))
	name := fmt.Sprintf("%s-standings", g)
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.csv"`, name))
		w.Header().Set("Cache-Control", "no-store")
		writeStandingsCSV(w, rows)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.json"`, name))
	writeJSON(w, http.StatusOK, map[string]any{"game": g, "ranked_by": "mu - 3 sigma (OpenSkill Plackett-Luce)", "standings": rows})
}

func cmp(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

// writeStandingsCSV writes the standings as CSV. A cell that a spreadsheet would read as a
// formula (starting with = + - @, a tab or a carriage return) is quoted with a leading '.
func writeStandingsCSV(w io.Writer, rows []StandingRow) {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"rank", "bot", "bot_id", "author", "language", "version", "version_id", "content_hash", "mu", "sigma", "ordinal", "matches", "wins", "draws", "losses", "faults", "house"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	i := strconv.Itoa
	for _, r := range rows {
		_ = cw.Write([]string{i(r.Rank), cell(r.Bot), strconv.FormatInt(r.BotID, 10), cell(r.Author), cell(r.Language), i(r.Version),
			strconv.FormatInt(r.VersionID, 10), cell(r.ContentHash), f(r.Mu), f(r.Sigma), f(r.Ordinal), i(r.Matches), i(r.Wins), i(r.Draws),
			i(r.Losses), i(r.Faults), strconv.FormatBool(r.House)})
	}
	cw.Flush()
}

func cell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

// ---- the announcement ----

// MaxAnnouncement bounds the announcement's length.
const MaxAnnouncement = 2000

func (s *Server) apiAnnouncement(w http.ResponseWriter, r *http.Request) {
	text, err := s.st.Announcement(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"text": text})
}

// cleanAnnouncement checks an announcement: plain text (shown escaped), bounded, no control
// characters but line breaks.
func cleanAnnouncement(text string) (string, error) {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if len(text) > MaxAnnouncement {
		return "", bad(http.StatusBadRequest, "the announcement has %d bytes, more than %d: shorten it", len(text), MaxAnnouncement)
	}
	if !utf8.ValidString(text) || strings.ContainsFunc(text, func(c rune) bool { return c != '\n' && unicode.IsControl(c) }) {
		return "", bad(http.StatusBadRequest, "the announcement holds control characters: give plain text (line breaks are kept)")
	}
	return text, nil
}

func (s *Server) postAnnouncement(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	text := r.PostFormValue("text")
	if isAPI(r) {
		var req struct {
			Text string `json:"text"`
		}
		if err := readJSON(r, &req); err != nil {
			s.answer(w, r, err)
			return
		}
		text = req.Text
	}
	text, err := cleanAnnouncement(text)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	if err := s.st.SetAnnouncement(r.Context(), text); err != nil {
		s.internal(w, r, err)
		return
	}
	noteAudit(r, "announcement.set", "announcement", clip(text))
	if isAPI(r) {
		writeJSON(w, http.StatusOK, map[string]any{"text": text})
		return
	}
	http.Redirect(w, r, "/organiser", http.StatusSeeOther)
}
