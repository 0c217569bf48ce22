// Package upload turns an uploaded file, zip or tarball into a submission folder that
// arena/botspec takes like any other: a bounded unpack that refuses what a folder of source must
// not hold (absolute or climbing paths, links, devices, pipes, duplicates) and stops a
// decompression bomb by counting the bytes it actually writes, per file and in total, and the
// files.
//
// The server never reads an archive with its own rights: Sandboxed writes the upload as one
// plain file and re-executes the arena binary as the unpacker (HelperArg, Main) in a sandbox of
// its own (own uid, no network, bounded memory, CPU, time, output and disk), then copies out
// only regular files and folders, counted again. Unpack is the unpacker's own code.
package upload
