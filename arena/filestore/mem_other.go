//go:build !linux

package filestore

// totalMemory is unknown off Linux: DefaultCap takes its floor.
func totalMemory() int64 { return 0 }
