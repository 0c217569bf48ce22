// Package upload turns an uploaded file, zip or tarball into a submission folder that
// arena/botspec takes like any other: a bounded unpack that refuses what a folder of source must
// not hold (absolute or climbing paths, links, devices, pipes) and stops a decompression bomb by
// counting the bytes it actually writes, per file and in total, and the files.
//
// The archive is read by Go's archive/zip and archive/tar, memory-safe parsers, inside these
// bounds; nothing in it is executed, and its files are only written into a fresh folder that
// the snapshot step then copies for the sandbox.
package upload
