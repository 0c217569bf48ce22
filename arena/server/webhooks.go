package server

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/botarena/arena/arena/ladder"
	"github.com/botarena/arena/arena/store"
)

// Webhooks: an author may give a URL and a secret; the server then POSTs "validation.finished"
// when one of their versions is validated and "rating.moved" when a ladder match moves one of
// their bots' ratings. Each body is about that author's own bot only, signed with the secret
// (X-Arena-Signature: sha256=HMAC-SHA256(secret, body) in hex).
//
// Bounded: the ladder's events wait in a queue of Options.WebhookQueue (more are dropped and
// counted, never holding the ladder up), each attempt has WebhookTimeout, a receiver's answer
// is read to at most webhookReadBound bytes, and a delivery is tried WebhookAttempts times with
// back-off doubling from Options.WebhookRetry. A URL is refused, when set and again when
// connecting (DNS can change), if it points at a loopback, private, link-local or otherwise
// internal address, unless the organiser allowed them (serve --webhooks-private): the server
// is not a way into its own network.

// Webhook bounds.
const (
	WebhookAttempts  = 5
	WebhookTimeout   = 5 * time.Second
	webhookReadBound = 4 << 10
	maxWebhookURL    = 2000
	minSecret        = 16
	maxSecret        = 200
)

// Notification kinds.
const (
	EventValidationFinished = "validation.finished"
	EventRatingMoved        = "rating.moved"
)

// SignatureHeader carries a delivery's signature.
const SignatureHeader = "X-Arena-Signature"

// notifier turns ladder events into webhook deliveries.
type notifier struct {
	s          *Server
	events     chan ladder.Event
	deliveries chan *delivery
	client     *http.Client
	retry      time.Duration
	// sent, failed (all attempts failed) and dropped (queue full) deliveries.
	sent, failed, dropped atomic.Int64
	seq                   atomic.Int64
	ctx                   context.Context
	stop                  context.CancelFunc
}

type delivery struct {
	url, secret, event, id string
	body                   []byte
	attempt                int
}

func newNotifier(s *Server) *notifier {
	q := s.opt.WebhookQueue
	if q <= 0 {
		q = 256
	}
	retry := s.opt.WebhookRetry
	if retry <= 0 {
		retry = time.Second
	}
	allow := s.opt.AllowPrivateWebhooks
	dialer := &net.Dialer{Timeout: WebhookTimeout, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return err
		}
		if !allow && internalAddr(ip) {
			return fmt.Errorf("webhook refused: %s is an internal address", ip)
		}
		return nil
	}}
	tr := &http.Transport{Proxy: nil, DialContext: dialer.DialContext, TLSHandshakeTimeout: WebhookTimeout,
		ResponseHeaderTimeout: WebhookTimeout, MaxResponseHeaderBytes: 16 << 10, MaxIdleConns: 16, IdleConnTimeout: 30 * time.Second}
	ctx, stop := context.WithCancel(context.Background())
	n := &notifier{s: s, events: make(chan ladder.Event, q), deliveries: make(chan *delivery, q), retry: retry, ctx: ctx, stop: stop,
		client: &http.Client{Transport: tr, Timeout: WebhookTimeout,
			// A redirect is an answer, not a place to go: following it could lead anywhere.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	go n.dispatch()
	for range 2 {
		go n.work()
	}
	return n
}

// Close stops the server's background work (webhook deliveries).
func (s *Server) Close() { s.hooks.stop() }

// event takes a ladder event without ever blocking the ladder.
func (n *notifier) event(e ladder.Event) {
	if e.Kind != ladder.Validated && !(e.Kind == ladder.MatchFinished && e.Status == store.LadderDone) {
		return
	}
	select {
	case n.events <- e:
	default:
		n.dropped.Add(1)
	}
}

func (n *notifier) dispatch() {
	for {
		select {
		case <-n.ctx.Done():
			return
		case e := <-n.events:
			if err := n.notify(e); err != nil && !errors.Is(err, store.ErrNotFound) {
				n.s.opt.Logger.Printf("webhooks: %v", err)
			}
		}
	}
}

// notify makes the deliveries of one event: each to the author of the bot it is about.
func (n *notifier) notify(e ladder.Event) error {
	ctx := n.ctx
	switch e.Kind {
	case ladder.Validated:
		v, err := n.s.st.VersionByID(ctx, e.VersionID)
		if err != nil {
			return err
		}
		n.send(v.Bot.UserID, EventValidationFinished, map[string]any{"game": v.Bot.Game, "bot_id": v.BotID, "bot": v.Bot.Name,
			"version_id": v.ID, "version": v.N, "status": v.Status, "verdict": v.Verdict})
	case ladder.MatchFinished:
		m, err := n.s.st.LadderMatchByID(ctx, e.MatchID)
		if err != nil {
			return err
		}
		if m.Kind != store.KindLadder {
			return nil
		}
		for _, st := range m.Seats {
			r, err := n.s.st.RatingAt(ctx, st.VersionID, m.ID)
			if err != nil {
				continue // not rated (a house bot's seat is rated too, but nobody listens for it)
			}
			body := map[string]any{"game": m.Game, "bot_id": st.BotID, "bot": st.Bot, "version_id": st.VersionID, "match_id": m.ID,
				"result": st.Result, "mu": r.Mu, "sigma": r.Sigma, "ordinal": r.Mu - 3*r.Sigma}
			if r.HasPrev {
				body["previous"] = map[string]float64{"mu": r.PrevMu, "sigma": r.PrevSigma, "ordinal": r.PrevMu - 3*r.PrevSigma}
			}
			n.send(st.UserID, EventRatingMoved, body)
		}
	}
	return nil
}

// send queues a delivery to a user's webhook, if they have one.
func (n *notifier) send(userID int64, event string, body map[string]any) {
	h, err := n.s.st.WebhookOf(n.ctx, userID)
	if err != nil {
		return
	}
	id := fmt.Sprintf("%d-%d", time.Now().UnixNano(), n.seq.Add(1))
	body["event"], body["delivery"], body["sent"] = event, id, time.Now().UTC()
	b, err := json.Marshal(body)
	if err != nil {
		return
	}
	n.enqueue(&delivery{url: h.URL, secret: h.Secret, event: event, id: id, body: b})
}

func (n *notifier) enqueue(d *delivery) {
	select {
	case n.deliveries <- d:
	default:
		n.dropped.Add(1)
	}
}

func (n *notifier) work() {
	for {
		select {
		case <-n.ctx.Done():
			return
		case d := <-n.deliveries:
			err := n.attempt(d)
			if err == nil {
				n.sent.Add(1)
				continue
			}
			d.attempt++
			if d.attempt >= WebhookAttempts {
				n.failed.Add(1)
				n.s.opt.Logger.Printf("webhooks: %s to %s failed %d times, the last: %v", d.event, d.url, d.attempt, err)
				continue
			}
			// Back-off doubles; the retry waits on a timer, not in a worker.
			time.AfterFunc(n.retry<<(d.attempt-1), func() {
				if n.ctx.Err() == nil {
					n.enqueue(d)
				}
			})
		}
	}
}

// Sign is a body's signature as sent in SignatureHeader.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

func (n *notifier) attempt(d *delivery) error {
	ctx, cancel := context.WithTimeout(n.ctx, WebhookTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url, bytes.NewReader(d.body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "arena-webhooks")
	req.Header.Set("X-Arena-Event", d.event)
	req.Header.Set("X-Arena-Delivery", d.id)
	req.Header.Set(SignatureHeader, Sign(d.secret, d.body))
	resp, err := n.client.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, webhookReadBound))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("answered %s", resp.Status)
	}
	return nil
}

// internalAddr reports an address a webhook may not reach unless allowed: loopback, private,
// link-local (cloud metadata), unspecified, multicast, shared (CGNAT) and benchmarking ranges.
func internalAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsMulticast() || ip.IsUnspecified() || !ip.IsValid() {
		return true
	}
	for _, p := range internalPrefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

var internalPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"), netip.MustParsePrefix("100.64.0.0/10"), netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), netip.MustParsePrefix("240.0.0.0/4"), netip.MustParsePrefix("64:ff9b::/96"),
}

// checkWebhookURL checks a webhook URL before it is stored.
func (s *Server) checkWebhookURL(ctx context.Context, raw string) error {
	if len(raw) > maxWebhookURL {
		return bad(http.StatusBadRequest, "the webhook URL has %d characters; at most %d", len(raw), maxWebhookURL)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Hostname() == "" {
		return bad(http.StatusBadRequest, "the webhook URL %q is not an http or https URL with a host: give one like https://example.org/arena-hook", clip(raw))
	}
	if u.User != nil {
		return bad(http.StatusBadRequest, "the webhook URL holds a user name or password: leave them out (the secret signs every delivery)")
	}
	if s.opt.AllowPrivateWebhooks {
		return nil
	}
	host := u.Hostname()
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		addrs, err = net.DefaultResolver.LookupNetIP(rctx, "ip", host)
		if err != nil || len(addrs) == 0 {
			return bad(http.StatusBadRequest, "the webhook host %q does not resolve: give a host this server can reach", clip(host))
		}
	}
	for _, a := range addrs {
		if internalAddr(a) {
			return bad(http.StatusBadRequest, "the webhook URL points at %s, an internal (loopback, private or link-local) address: give a public one "+
				"(the organiser may allow internal ones with arena serve --webhooks-private)", a)
		}
	}
	return nil
}

// setWebhook checks and stores a user's webhook; an empty secret gets a generated one, which
// it returns (shown once).
func (s *Server) setWebhook(ctx context.Context, u store.User, rawURL, secret string) (string, error) {
	rawURL = strings.TrimSpace(rawURL)
	if err := s.checkWebhookURL(ctx, rawURL); err != nil {
		return "", err
	}
	made := ""
	if secret == "" {
		secret = "whsec_" + randomToken()
		made = secret
	}
	if len(secret) < minSecret || len(secret) > maxSecret {
		return "", bad(http.StatusBadRequest, "a webhook secret has %d to %d characters (or leave it out and one is made for you)", minSecret, maxSecret)
	}
	return made, s.st.SetWebhook(ctx, u.ID, rawURL, secret)
}

func (s *Server) apiWebhook(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	h, err := s.st.WebhookOf(r.Context(), u.ID)
	if errors.Is(err, store.ErrNotFound) {
		s.fail(w, r, http.StatusNotFound, "you have no webhook: PUT /api/v1/me/webhook {\"url\", \"secret\"} sets one")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"url": h.URL, "created": h.Created, "events": []string{EventValidationFinished, EventRatingMoved}})
}

func (s *Server) putWebhook(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	var req struct {
		URL    string `json:"url"`
		Secret string `json:"secret"`
	}
	if err := readJSON(r, &req); err != nil {
		s.answer(w, r, err)
		return
	}
	made, err := s.setWebhook(r.Context(), u, req.URL, req.Secret)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	out := map[string]any{"url": strings.TrimSpace(req.URL), "events": []string{EventValidationFinished, EventRatingMoved}}
	if made != "" {
		out["secret"] = made
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	if err := s.st.DeleteWebhook(r.Context(), u.ID); err != nil {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) renderWebhook(w http.ResponseWriter, r *http.Request, u store.User, data map[string]any) {
	h, err := s.st.WebhookOf(r.Context(), u.ID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.internal(w, r, err)
		return
	}
	data["Title"], data["Hook"] = "Webhook", h
	s.render(w, r, "webhook", data)
}

func (s *Server) pageWebhook(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	s.renderWebhook(w, r, u, map[string]any{})
}

func (s *Server) postWebhook(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	if r.PostFormValue("remove") != "" {
		if err := s.st.DeleteWebhook(r.Context(), u.ID); err != nil {
			s.internal(w, r, err)
			return
		}
		s.renderWebhook(w, r, u, map[string]any{"Message": "Webhook removed."})
		return
	}
	made, err := s.setWebhook(r.Context(), u, r.PostFormValue("url"), r.PostFormValue("secret"))
	var b *badInput
	if errors.As(err, &b) {
		w.WriteHeader(b.code)
		s.renderWebhook(w, r, u, map[string]any{"Error": b.msg})
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.renderWebhook(w, r, u, map[string]any{"Message": "Webhook saved.", "Secret": made})
}
