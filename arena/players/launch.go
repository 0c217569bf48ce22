package players

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/host"
)

// Launch resolves and starts every bot concurrently. On any failure it stops the ones that
// started and returns every error joined, each naming its bot.
func Launch(ctx context.Context, r *botspec.Resolver, args []string, opt host.Options) ([]*host.Bot, error) {
	return LaunchLive(ctx, r, args, opt, nil)
}

// LaunchLive is Launch with each seat's output copied live to live(seat) (nil: none).
func LaunchLive(ctx context.Context, r *botspec.Resolver, args []string, opt host.Options, live func(seat int) io.Writer) ([]*host.Bot, error) {
	cmds := make([]host.Command, len(args))
	var errs []error
	for i, a := range args {
		c, err := r.Command(a)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if live != nil {
			c.Live = live(i)
		}
		cmds[i] = c
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	bots := make([]*host.Bot, len(args))
	berrs := make([]error, len(args))
	var wg sync.WaitGroup
	for i := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bots[i], berrs[i] = host.Launch(ctx, cmds[i], opt)
		}()
	}
	wg.Wait()
	if err := errors.Join(berrs...); err != nil {
		CloseAll(bots)
		return nil, err
	}
	return bots, nil
}

// CloseAll stops every bot (nil entries are skipped), concurrently.
func CloseAll(bots []*host.Bot) {
	var wg sync.WaitGroup
	for _, b := range bots {
		if b != nil {
			wg.Add(1)
			go func() { defer wg.Done(); b.Close() }()
		}
	}
	wg.Wait()
}
