// Command rawquiet is a hostile bot: see package attack (RawNames).
package main

import "github.com/botarena/arena/bots/hostile/attack"

func main() { attack.Main("rawquiet") }
