// Package filepolicy decides what a submission's files may be, in one place for every way
// files come in or move: the upload unpacker (in its sandbox and again on the host), the
// snapshot of a bot's folder, the archive that carries a snapshot to a worker and back, and
// the copy of a build's output into the files store.
//
// A submission holds regular files and folders only: a symbolic or hard link, a device, a
// named pipe or a socket is refused with an error naming its path, so no copy can reach
// outside the submission or block on a special file. Every entry is counted the same way
// everywhere: each file once, each folder once whether the archive named it or only a file's
// path implies it, against one bound on entries; each file's bytes against a bound per file
// and all of them against a bound in all; and no path nests deeper than MaxDepth folders.
// What the bounds are is the caller's (an upload is smaller than a local folder); how they
// count is this package's.
package filepolicy
