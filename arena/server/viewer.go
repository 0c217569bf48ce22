package server

import (
	"net/http"
)

// pageViewer serves a ladder match's replay viewer: one self-contained page (its own inline
// script and styles, hence no CSP of the site's), framed by the match page.
func (s *Server) pageViewer(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	b, err := s.st.LadderReplay(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.viewer(w, r, b)
}

func (s *Server) pageTournamentViewer(w http.ResponseWriter, r *http.Request) {
	b, err := s.tournamentReplay(r)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	s.viewer(w, r, b)
}

func (s *Server) viewer(w http.ResponseWriter, r *http.Request, replay []byte) {
	if s.opt.Viewer == nil {
		s.fail(w, r, http.StatusNotImplemented, "the replay viewer is not part of this build yet: download the replay (replay.json) and read it with arena replay FILE")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'")
	if err := s.opt.Viewer(w, replay); err != nil {
		s.opt.Logger.Printf("viewer: %v", err)
	}
}
