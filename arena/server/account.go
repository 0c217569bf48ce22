package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/store"
)

// What an account holder does with their account besides logging in: API tokens (made only
// with the password, listed, revoked, expiring), a password change, and logging out
// everywhere. Pages post forms under /me and /logout; the API has the same under /api/v1.

// trustedPrefixes checks --trusted-proxy values: CIDRs, or single addresses.
func trustedPrefixes(in []string) ([]string, error) {
	var out []string
	for _, v := range in {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked().String())
			continue
		}
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a CIDR (like 10.0.0.5 or 10.0.0.0/24)", v)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()).String())
	}
	return out, nil
}

// noteOrganisers logs, at start, who the organisers are, or how to make the first one.
func (s *Server) noteOrganisers(ctx context.Context) error {
	users, err := s.st.Users(ctx)
	if err != nil {
		return err
	}
	var orgs []string
	for _, u := range users {
		if u.Role == store.RoleOrganiser {
			orgs = append(orgs, u.Name)
		}
	}
	if len(orgs) == 0 {
		s.opt.Logger.Printf("no organiser yet: arena user add NAME --organiser --store %s makes one (registering never does)", s.st.Path)
		return nil
	}
	s.opt.Logger.Printf("organisers: %s (arena user list --store %s shows every account)", strings.Join(orgs, ", "), s.st.Path)
	return nil
}

// sessionHash is the stored hash of the request's session, "" for a token or no session.
func sessionHash(r *http.Request) string {
	if via, _ := r.Context().Value(viaTokenKey).(bool); via {
		return ""
	}
	if c, err := r.Cookie(SessionCookie); err == nil {
		return hashToken(c.Value)
	}
	return ""
}

// reauth checks the logged-in user's password again (counted by the per-account limit).
func (s *Server) reauth(ctx context.Context, u store.User, password string) error {
	_, err := s.checkPassword(ctx, u.Name, password)
	switch {
	case errors.Is(err, errTooManyFailures):
		return bad(http.StatusTooManyRequests, "%v", err)
	case err != nil:
		return bad(http.StatusUnauthorized, "wrong password: this needs your current password")
	}
	return nil
}

// loginFailure answers a failed name-and-password check.
func loginFailure(err error) error {
	if errors.Is(err, errTooManyFailures) {
		return bad(http.StatusTooManyRequests, "%v", err)
	}
	if errors.Is(err, errDisabled) {
		return bad(http.StatusForbidden, "%v", err)
	}
	return bad(http.StatusUnauthorized, "%v", err)
}

// changePassword checks the current password, sets the new one and ends every other session
// of u (every one when the call came with a token) and, with revokeTokens, every API token.
func (s *Server) changePassword(r *http.Request, u store.User, current, next string, revokeTokens bool) (ended, revoked int, err error) {
	if err := s.reauth(r.Context(), u, current); err != nil {
		return 0, 0, err
	}
	if err := PasswordRule(next); err != nil {
		return 0, 0, bad(http.StatusBadRequest, "%v", err)
	}
	hash, err := HashPassword(next)
	if err != nil {
		return 0, 0, err
	}
	if err := s.st.SetPassword(r.Context(), u.ID, hash); err != nil {
		return 0, 0, err
	}
	return s.logoutEverywhere(r, u, sessionHash(r), revokeTokens)
}

// logoutEverywhere ends u's sessions but keep ("" ends all) and, with tokens, its API tokens.
func (s *Server) logoutEverywhere(r *http.Request, u store.User, keep string, tokens bool) (ended, revoked int, err error) {
	if ended, err = s.st.DeleteSessions(r.Context(), u.ID, keep); err != nil {
		return 0, 0, err
	}
	if tokens {
		if revoked, err = s.st.RevokeTokens(r.Context(), u.ID); err != nil {
			return 0, 0, err
		}
	}
	return ended, revoked, nil
}

// renderMe shows the account page with data's extras (a new token, a message, an error).
func (s *Server) renderMe(w http.ResponseWriter, r *http.Request, u store.User, data map[string]any) {
	bots, err := s.st.WebBots(r.Context(), "", u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	toks, err := s.st.Tokens(r.Context(), u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	n, err := s.st.Sessions(r.Context(), u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if data == nil {
		data = map[string]any{}
	}
	data["Title"], data["Bots"], data["Tokens"], data["Sessions"] = u.Name, bots, toks, n
	data["TokenDays"] = int(s.opt.TokenLife.Hours() / 24)
	s.render(w, r, "me", data)
}

// meFailed shows the account page with err's message (and its status), or answers 500.
func (s *Server) meFailed(w http.ResponseWriter, r *http.Request, u store.User, err error) {
	var b *badInput
	if !errors.As(err, &b) {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(b.code)
	s.renderMe(w, r, u, map[string]any{"Error": b.msg})
}

func (s *Server) pageMe(w http.ResponseWriter, r *http.Request) {
	if u, ok := s.needUser(w, r); ok {
		s.renderMe(w, r, u, nil)
	}
}

// postToken makes an API token from the account page: the session alone is not enough, the
// form carries the password.
func (s *Server) postToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	if err := s.reauth(r.Context(), u, r.PostFormValue("password")); err != nil {
		s.meFailed(w, r, u, err)
		return
	}
	days, _ := strconv.Atoi(r.PostFormValue("days"))
	tok, _, err := s.newToken(r.Context(), u, r.PostFormValue("label"), days)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.renderMe(w, r, u, map[string]any{"Token": tok})
}

func (s *Server) postRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	id, _ := idParam(r, "id")
	if err := s.st.RevokeToken(r.Context(), u.ID, id); err != nil {
		s.internal(w, r, err)
		return
	}
	http.Redirect(w, r, "/me#tokens", http.StatusSeeOther)
}

func (s *Server) postPassword(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	ended, revoked, err := s.changePassword(r, u, r.PostFormValue("password"), r.PostFormValue("new_password"), r.PostFormValue("revoke_tokens") != "")
	if err != nil {
		s.meFailed(w, r, u, err)
		return
	}
	s.renderMe(w, r, u, map[string]any{"Message": fmt.Sprintf("Password changed; %d other sessions ended, %d API tokens revoked.", ended, revoked)})
}

// postLogoutEverywhere ends every session of the user, this one too, and with "tokens" every
// API token.
func (s *Server) postLogoutEverywhere(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	if _, _, err := s.logoutEverywhere(r, u, "", r.PostFormValue("tokens") != ""); err != nil {
		s.internal(w, r, err)
		return
	}
	s.endSession(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) apiTokens(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	toks, err := s.st.Tokens(r.Context(), u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if toks == nil {
		toks = []store.Token{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": toks})
}

func (s *Server) apiRevokeToken(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	id, _ := idParam(r, "id")
	if err := s.st.RevokeToken(r.Context(), u.ID, id); err != nil {
		s.internal(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) apiPassword(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Password     string `json:"password"`
		NewPassword  string `json:"new_password"`
		RevokeTokens bool   `json:"revoke_tokens"`
	}
	if err := readJSON(r, &req); err != nil {
		s.answer(w, r, err)
		return
	}
	ended, revoked, err := s.changePassword(r, u, req.Password, req.NewPassword, req.RevokeTokens)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions_ended": ended, "tokens_revoked": revoked})
}

func (s *Server) apiLogoutEverywhere(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	var req struct {
		Tokens bool `json:"tokens"`
	}
	if err := readJSON(r, &req); err != nil {
		s.answer(w, r, err)
		return
	}
	ended, revoked, err := s.logoutEverywhere(r, u, "", req.Tokens)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions_ended": ended, "tokens_revoked": revoked})
}

// TrustedProxy reports whether a peer is one of Options.TrustedProxies (its connections carry
// many clients, so per-client bounds on connections do not apply to it).
func (s *Server) TrustedProxy(a netip.Addr) bool {
	a = a.Unmap()
	for _, v := range s.opt.TrustedProxies {
		if p, err := netip.ParsePrefix(v); err == nil && p.Contains(a) {
			return true
		}
	}
	return false
}
