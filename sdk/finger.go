package sdk

// FingerPlayer plays one finger match. Placeholder until the finger API lands.
type FingerPlayer interface {
	fingerPlaceholder()
}
