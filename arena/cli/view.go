package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/viewer"
)

func init() { extraCommands = append(extraCommands, newView) }

func newView() *cobra.Command {
	var out, serve string
	var force bool
	cmd := &cobra.Command{
		Use:   "view REPLAY.json",
		Short: "Write (or serve) one self-contained HTML page that replays a recorded match",
		Long: "view re-runs the engine on a record written by 'arena play --replay' and writes one HTML\n" +
			"page (no network needed, it works from file://) with play, pause, step, seek, speed and\n" +
			"keyboard controls (space, arrows, Home/End; up/down change the speed), each bot's answer\n" +
			"with its time and CPU, faults at their move, and a picture of the game's state.\n" +
			"With --serve it serves the page on that address instead of writing a file.",
		Example: "  arena play dynamite bots/dynamite/cmd/paper bots/dynamite/cmd/beatlast --replay m.json\n" +
			"  arena view m.json                 # writes replay.html\n" +
			"  arena view m.json --out m.html\n" +
			"  arena view m.json --serve 127.0.0.1:8081",
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVarP(&out, "out", "o", "replay.html", "the HTML file to write")
	cmd.Flags().StringVar(&serve, "serve", "", "serve the page on this address (host:port) instead of writing a file")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite --out even when it is not a page written by 'arena view'")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		rec, err := replay.Read(args[0])
		if err != nil {
			return err
		}
		var page bytes.Buffer
		if err := viewer.WriteSource(&page, rec, args[0], viewer.MaxBytes); err != nil {
			return err
		}
		if serve != "" {
			return servePage(cmd.Context(), cmd.OutOrStdout(), serve, page.Bytes())
		}
		if err := writePage(out, args[0], page.Bytes(), force); err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%d steps, %.1f MiB); open it in a browser\n", out, len(rec.Steps), float64(page.Len())/(1<<20))
		return nil
	}
	return cmd
}

// writePage writes the page atomically, and never over the replay itself or over a file that
// is not an earlier page of this command (unless forced): a typo in --out must not lose data.
func writePage(out, replayPath string, page []byte, force bool) error {
	if st, err := os.Stat(out); err == nil {
		if rs, rerr := os.Stat(replayPath); rerr == nil && os.SameFile(st, rs) {
			return fmt.Errorf("%w: --out %s is the replay itself; name another file for the page", ErrUsage, out)
		}
		if st.IsDir() {
			return fmt.Errorf("%w: --out %s is a folder; name a file, e.g. %s", ErrUsage, out, filepath.Join(out, "replay.html"))
		}
		if !force && !isViewerPage(out) {
			return fmt.Errorf("%w: %s exists and is not a page written by 'arena view'; name another file or pass --force to overwrite it", ErrUsage, out)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(out), ".view-*.html")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	if _, err := f.Write(page); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), out); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %w", out, err)
	}
	return nil
}

// isViewerPage reports whether path starts like a page viewer.Write made.
func isViewerPage(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(viewer.Generator))
}

// servePage serves the page at / until the command is interrupted.
func servePage(ctx context.Context, out io.Writer, addr string, page []byte) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("cannot serve on %s: %w (pick a free host:port, e.g. 127.0.0.1:8081)", addr, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(page)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 60 * time.Second}
	fmt.Fprintf(out, "serving the replay at http://%s/ (Ctrl-C stops)\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}
