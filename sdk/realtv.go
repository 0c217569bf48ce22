package sdk

// RealtvSetup describes one Real TV instance. Placeholder until the realtv API lands.
type RealtvSetup struct {
	ID       string
	Name     string
	Strength int
}

// RealtvPlayer is one Real TV instance. Placeholder until the realtv API lands.
type RealtvPlayer interface {
	realtvPlaceholder()
}
