package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/names"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/upload"
)

// badInput is an error the user fixes; its message says how.
type badInput struct {
	code int
	msg  string
}

func (e *badInput) Error() string { return e.msg }

func bad(code int, format string, args ...any) error {
	return &badInput{code: code, msg: fmt.Sprintf(format, args...)}
}

// answer sends err: a badInput with its code and message, anything else as internal.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, err error) {
	var b *badInput
	if errors.As(err, &b) {
		s.fail(w, r, b.code, b.msg)
		return
	}
	s.internal(w, r, err)
}

// MaxValidating is how many versions one author may have validating at once.
const MaxValidating = 3

// Default quotas of one author (Options.Quota): versions holding files, and their unpacked
// bytes. Failed and replaced versions are collected, so in use they are one version a bot.
const (
	DefaultMaxVersions = 20
	DefaultMaxStored   = 64 << 20
)

// quotaRefusal says which quota an upload met and what the author can do.
func quotaRefusal(q *store.QuotaError) error {
	switch q.Which {
	case "validating":
		return bad(http.StatusTooManyRequests, "%d of your versions are still validating (at most %d at once): wait for their verdicts, then upload again", q.Have, q.Limit)
	case "versions":
		return bad(http.StatusForbidden, "you keep the files of %d versions, the most one author may (quota: --max-versions %d): upload a new version of one of your bots instead (a passing version replaces the one before, and failed and replaced versions are collected), or ask the organiser for a larger quota", q.Have, q.Limit)
	default:
		return bad(http.StatusForbidden, "this upload would take your stored files to %.1f MiB, more than one author may keep (quota: %.1f MiB, --max-stored): leave out data and build output, upload a new version of a bot you have (it replaces the one before), or ask the organiser for a larger quota", float64(q.Have)/(1<<20), float64(q.Limit)/(1<<20))
	}
}

// readUpload reads the multipart form's "file" within the size bound.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (game, name, filename string, data []byte, err error) {
	r.Body = http.MaxBytesReader(w, r.Body, s.opt.MaxUpload)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return "", "", "", nil, bad(http.StatusRequestEntityTooLarge, "the upload is larger than %d MiB: leave out build output, dependencies and data", s.opt.MaxUpload>>20)
		}
		return "", "", "", nil, bad(http.StatusBadRequest, "not a file upload (%v): send a multipart form with game, name and file", err)
	}
	defer r.MultipartForm.RemoveAll()
	game, name = strings.TrimSpace(r.FormValue("game")), strings.TrimSpace(r.FormValue("name"))
	f, h, err := r.FormFile("file")
	if err != nil {
		return "", "", "", nil, bad(http.StatusBadRequest, "no file in the upload: choose the bot's file, zip or tarball")
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, s.opt.MaxUpload+1))
	if err != nil {
		return "", "", "", nil, err
	}
	return game, name, h.Filename, data, nil
}

// accept stores an upload as a new version of the user's bot and queues its validation.
func (s *Server) accept(ctx context.Context, u store.User, game, name, filename string, data []byte) (store.Version, error) {
	if !knownGame(game) {
		return store.Version{}, bad(http.StatusBadRequest, "unknown game %q: pick one of the games on the front page", game)
	}
	if err := names.Bot(name); err != nil {
		return store.Version{}, bad(http.StatusBadRequest, "%v", err)
	}
	if int64(len(data)) > s.opt.MaxUpload {
		return store.Version{}, bad(http.StatusRequestEntityTooLarge, "the upload is larger than %d MiB", s.opt.MaxUpload>>20)
	}
	// Each validation is a sandboxed build and a match: an author waits for theirs to end
	// before queueing more. This early look saves an unpack; the quota is taken atomically
	// with the version's record below.
	if n, err := s.st.Validating(ctx, u.ID); err != nil {
		return store.Version{}, err
	} else if n >= s.opt.Quota.Validating {
		return store.Version{}, quotaRefusal(&store.QuotaError{Which: "validating", Have: int64(n), Limit: int64(s.opt.Quota.Validating)})
	}
	incoming, err := os.MkdirTemp(filepath.Join(s.opt.DataDir, "versions"), ".incoming-")
	if err != nil {
		return store.Version{}, err
	}
	defer os.RemoveAll(incoming)
	src := filepath.Join(incoming, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		return store.Version{}, err
	}
	// The archive is read in a sandbox of its own, never with the server's rights.
	unpacker := upload.Sandboxed{Limits: s.opt.Unpack, Strict: s.lad.Host.Strict}
	if err := unpacker.Unpack(filename, data, src); err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, upload.ErrTooBig) {
			code = http.StatusRequestEntityTooLarge
		}
		return store.Version{}, bad(code, "%v", err)
	}
	lang, err := ladder.Language(src)
	if err != nil {
		return store.Version{}, bad(http.StatusBadRequest, "%s", strings.ReplaceAll(err.Error(), src, filename))
	}
	b, err := s.st.EnsureBot(ctx, u.ID, game, name, "")
	if errors.Is(err, store.ErrExists) {
		return store.Version{}, bad(http.StatusConflict, "%v", err)
	}
	if err != nil {
		return store.Version{}, err
	}
	size, err := treeSize(src)
	if err != nil {
		return store.Version{}, err
	}
	start, err := s.startingSkill(ctx, b.ID)
	if err != nil {
		return store.Version{}, err
	}
	v, err := s.st.AddVersionWithin(ctx, u.ID, b.ID, size, start.Mu, start.Sigma, s.opt.Quota)
	var qe *store.QuotaError
	if errors.As(err, &qe) {
		_ = s.st.DropEmptyBot(context.WithoutCancel(ctx), b.ID)
		return store.Version{}, quotaRefusal(qe)
	}
	if err != nil {
		return store.Version{}, err
	}
	dir := filepath.Join(s.opt.DataDir, "versions", strconv.FormatInt(v.ID, 10))
	if err := os.Rename(incoming, dir); err != nil {
		_ = s.st.SetVerdict(ctx, v.ID, store.VersionFailed, "the server could not store the files", "", "")
		return store.Version{}, err
	}
	if err := s.st.SetVersionDir(ctx, v.ID, filepath.Join(dir, "src"), lang); err != nil {
		return store.Version{}, err
	}
	s.lad.Enqueue(v.ID)
	return s.st.VersionByID(ctx, v.ID)
}

// versionFiles lists a version's files with their contents (text, bounded), for its author.
func versionFiles(dir string) (map[string]string, error) {
	out := map[string]string{}
	total := 0
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if total += len(b); total > 4<<20 {
			out[rel] = "(not shown: over 4 MiB in all)"
			return nil
		}
		out[rel] = string(b)
		return nil
	})
	return out, err
}

// treeSize is the bytes of the files under dir (an unpacked upload) as the files policy
// counts them, which is what the author's quota is charged.
func treeSize(dir string) (int64, error) {
	t, err := filepolicy.Measure(dir, filepolicy.Policy{})
	return t.Bytes(), err
}
