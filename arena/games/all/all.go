package all

import (
	_ "github.com/botarena/arena/arena/games/auction"  // registers auction
	_ "github.com/botarena/arena/arena/games/bidding"  // registers bidding
	_ "github.com/botarena/arena/arena/games/dynamite" // registers dynamite
	_ "github.com/botarena/arena/arena/games/finger"   // registers finger
	_ "github.com/botarena/arena/arena/games/realtv"   // registers realtv
)
