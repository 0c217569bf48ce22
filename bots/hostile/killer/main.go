// Command killer is a hostile dynamite bot: see package attack.
package main

import "github.com/botarena/arena/bots/hostile/attack"

func main() { attack.Main("killer") }
