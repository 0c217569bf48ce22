package budget

import "sync"

// PerKey counts what each key (a client address) holds at once and refuses past a limit.
type PerKey struct {
	mu    sync.Mutex
	limit int
	held  map[string]int
}

// NewPerKey allows limit at once per key.
func NewPerKey(limit int) *PerKey { return &PerKey{limit: max(limit, 1), held: map[string]int{}} }

// Take holds one for key; ok is false (and nothing is held) when key already holds the limit.
func (p *PerKey) Take(key string) (release func(), ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.held[key] >= p.limit {
		return nil, false
	}
	p.held[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			if p.held[key]--; p.held[key] <= 0 {
				delete(p.held, key) // the map holds only keys in use
			}
		})
	}, true
}

// Held is what key holds now.
func (p *PerKey) Held(key string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.held[key]
}
