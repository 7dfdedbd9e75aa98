package runtime

import "errors"

// Sentinel errors. Every package wraps them with %w, so programs match a
// failure with errors.Is whichever backend or layer produced it.
var (
	// ErrClosed: a buffer, backend or event was used after Close or Free.
	ErrClosed = errors.New("closed")
	// ErrReleased: the object's device family was released (Release).
	ErrReleased = errors.New("device released")
	// ErrUnsupported: no backend (or not this one) can run the op or dtype.
	ErrUnsupported = errors.New("unsupported")
	// ErrShape: shapes, strides or dtypes of an op's operands do not fit.
	ErrShape = errors.New("shape mismatch")
	// ErrOutOfMemory: an allocation cannot be satisfied.
	ErrOutOfMemory = errors.New("out of memory")
	// ErrCorruptFile: a model or data file is malformed or inconsistent.
	ErrCorruptFile = errors.New("corrupt file")
	// ErrContextFull: a sequence reached the end of its context window.
	ErrContextFull = errors.New("context full")
	// ErrOutOfRange: an offset, size or index lies outside its tensor or buffer.
	ErrOutOfRange = errors.New("out of range")
	// ErrInvalidArgument: a parameter value is not allowed (NaN, negative, …).
	ErrInvalidArgument = errors.New("invalid argument")
)
