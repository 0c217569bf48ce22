package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"runtime"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"github.com/botarena/arena/arena/server/budget"
)

// Budget bounds what one request, one client address and everyone together can make the
// server spend, before any parsing. Zero fields take the defaults below (README, "The contest
// on the web").
type Budget struct {
	// MaxForm bounds the body of every request that is not an upload (default 64 KiB): forms
	// and JSON calls hold a name, a password or a label.
	MaxForm int64
	// FormTime is how long a client may take to send such a body (default 20 s).
	FormTime time.Duration
	// UploadTime is how long a client may take to send an upload (default 5 min); it is also
	// the longest any request may take to arrive, headers included.
	UploadTime time.Duration
	// WriteTime is how long a response may take to be sent (default 2 min; an event stream
	// gets it afresh at every event).
	WriteTime time.Duration
	// RequestsPerClient bounds one client address's requests in flight (default 64).
	RequestsPerClient int
	// ListenersPerClient bounds one client address's open /events streams (default 8).
	ListenersPerClient int
	// RegisterPerAddress and RegisterTotal bound new accounts an hour, from one address and
	// in all (defaults 20 and 500).
	RegisterPerAddress, RegisterTotal int
	// HashSlots is how many passwords are hashed at once (default: one per core; argon2id
	// takes 64 MiB each); more wait up to HashWait (default 10 s), then get 503.
	HashSlots int
	HashWait  time.Duration
	// UploadSlots is how many uploads are read at once (default 4; more wait up to 30 s).
	UploadSlots int
	// RenderSlots is how many replays are decoded at once for viewer pages and redacted
	// downloads (default: one per core).
	RenderSlots int
}

func (b Budget) withDefaults() Budget {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	if b.MaxForm <= 0 {
		b.MaxForm = 64 << 10
	}
	defD(&b.FormTime, 20*time.Second)
	defD(&b.UploadTime, 5*time.Minute)
	defD(&b.WriteTime, 2*time.Minute)
	defD(&b.HashWait, 10*time.Second)
	def(&b.RequestsPerClient, 64)
	def(&b.ListenersPerClient, 8)
	def(&b.RegisterPerAddress, 20)
	def(&b.RegisterTotal, 500)
	def(&b.HashSlots, runtime.NumCPU())
	def(&b.UploadSlots, 4)
	def(&b.RenderSlots, runtime.NumCPU())
	return b
}

// limits are the budget's counters, made once per server.
type limits struct {
	requests  *budget.PerKey // requests in flight per client
	listeners *budget.PerKey // event streams per client
	hashing   *budget.Slots
	uploads   *budget.Slots
	renders   *budget.Slots
}

func newLimits(b Budget) limits {
	return limits{
		requests:  budget.NewPerKey(b.RequestsPerClient),
		listeners: budget.NewPerKey(b.ListenersPerClient),
		// Waiters hold only a goroutine and a small body each; the queue still has a bound.
		hashing: budget.NewSlots(b.HashSlots, 16*b.HashSlots, b.HashWait),
		// A waiting upload's body waits in the kernel: not long.
		uploads: budget.NewSlots(b.UploadSlots, 4*b.UploadSlots, 30*time.Second),
		renders: budget.NewSlots(b.RenderSlots, 4*b.RenderSlots, b.WriteTime/2),
	}
}

// HTTPServer is the http.Server to serve s with: its timeouts and header bound are the
// connection-level half of the budget (the listener's is budget.Listener).
func (s *Server) HTTPServer() *http.Server {
	b := s.opt.Budget
	return &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: b.UploadTime, WriteTimeout: b.WriteTime,
		IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10, ErrorLog: s.opt.Logger}
}

// clientKey is the client's address, the key of every per-client bound.
func clientKey(r *http.Request) string {
	return httprate.CanonicalizeIP(middleware.GetClientIP(r.Context()))
}

// isUpload reports whether r is one of the two upload calls, whose bodies may be --max-upload.
func isUpload(r *http.Request) bool {
	return r.Method == http.MethodPost && (r.URL.Path == "/upload" || r.URL.Path == "/api/v1/uploads")
}

// busy answers 503 with a Retry-After: the server refused work it has no room for now.
func (s *Server) busy(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("Retry-After", "10")
	s.fail(w, r, http.StatusServiceUnavailable, msg)
}

// errBusy is a password hash, an upload or a replay that found no free slot in time.
var errBusy = errors.New("the server is busy: try again in a few seconds")

// requestBudget bounds every request before any handler or middleware reads its body: requests
// in flight per client, the body's size (forms small, uploads --max-upload) and the time to
// send it.
func (s *Server) requestBudget(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		release, ok := s.limits.requests.Take(clientKey(r))
		if !ok {
			w.Header().Set("Retry-After", "5")
			s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("more than %d requests at once from this address: wait for the others to finish", s.opt.Budget.RequestsPerClient))
			return
		}
		defer release()
		limit, bodyTime := s.opt.Budget.MaxForm, s.opt.Budget.FormTime
		if isUpload(r) {
			// The form's fields and the multipart framing come on top of the file.
			limit, bodyTime = s.opt.MaxUpload+64<<10, s.opt.Budget.UploadTime
		}
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			s.fail(w, r, http.StatusRequestEntityTooLarge, tooLarge(limit))
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			// The body's own deadline; once it is read, the deadline goes (net/http's read of
			// the next request would otherwise end a long handler's context).
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(bodyTime)) == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
			}
			if isUpload(r) {
				// The answer comes after the upload arrived (the server's WriteTimeout counts
				// from its headers).
				_ = rc.SetWriteDeadline(time.Now().Add(bodyTime + s.opt.Budget.WriteTime))
			}
		}
		next.ServeHTTP(w, r)
	})
}

func tooLarge(limit int64) string {
	if limit >= 1<<20 {
		return fmt.Sprintf("the request is larger than %d MiB: leave out build output, dependencies and data", limit>>20)
	}
	return fmt.Sprintf("the request is larger than %d KiB: a form here holds a few short fields", limit>>10)
}

// deadlineBody lifts the body's read deadline once the body is read to its end.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

// forms parses a form body once, within the body's bound, on the request every later handler
// sees (a request copy's form would escape net/http's clean-up), and removes the multipart
// temp files when the request ends, whatever happened. An upload is read only for a logged-in
// user and only in one of the upload slots; a form that is not an upload never reaches the disk.
func (s *Server) forms(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if ct != "multipart/form-data" && ct != "application/x-www-form-urlencoded" {
			next.ServeHTTP(w, r) // JSON calls decode their own (bounded) body
			return
		}
		memory := s.opt.Budget.MaxForm + 1 // the whole body fits: nothing goes to disk
		if isUpload(r) {
			if _, ok := current(r); !ok {
				next.ServeHTTP(w, r) // refused by the handler without reading a byte
				return
			}
			release, err := s.limits.uploads.Acquire(r.Context())
			if err != nil {
				s.busy(w, r, "other uploads are being received: try again in a few seconds")
				return
			}
			defer release()
			memory = 1 << 20 // a larger file goes to a temp file, removed below
		}
		var err error
		if ct == "multipart/form-data" {
			err = r.ParseMultipartForm(memory)
		} else {
			err = r.ParseForm()
		}
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				s.fail(w, r, http.StatusRequestEntityTooLarge, tooLarge(mb.Limit))
				return
			}
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("the form cannot be read (%v): send it again", err))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// registerLimits bounds new accounts: per address and in all, an hour.
func (s *Server) registerLimits() func(http.Handler) http.Handler {
	b := s.opt.Budget
	perAddress := httprate.LimitBy(b.RegisterPerAddress, time.Hour, func(r *http.Request) (string, error) { return clientKey(r), nil },
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("%d accounts an hour may be made from one address: try again later", b.RegisterPerAddress))
		}))
	total := httprate.LimitBy(b.RegisterTotal, time.Hour, httprate.Key("all"),
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "600")
			s.fail(w, r, http.StatusTooManyRequests, fmt.Sprintf("%d accounts were made in the last hour, the most the server takes: try again later", b.RegisterTotal))
		}))
	return func(next http.Handler) http.Handler { return perAddress(total(next)) }
}
