// Command silent never prints a handshake.
package main

import "time"

func main() { time.Sleep(time.Hour) }
