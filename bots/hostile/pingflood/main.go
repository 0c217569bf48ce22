// Command pingflood is a hostile bot: see package attack (PingFlood).
package main

import "github.com/botarena/arena/bots/hostile/attack"

func main() { attack.Main(attack.PingFlood) }
