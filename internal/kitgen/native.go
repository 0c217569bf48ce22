package kitgen

import (
	"fmt"
	"strings"
)

// The Rust, Java and C++ kits read JSON lines through their own small parsers; for them the
// generator writes the tables alone (games, their messages, enum names), as new files their
// hand-written layer may use.
const (
	RustFile = "sdk/rust/src/tables.rs"
	JavaFile = "sdk/java/arena/Tables.java"
	CppFile  = "sdk/cpp/arena/tables.hpp"
)

func rustFile(s *Schema) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n\n", Header)
	b.WriteString("//! The protocol's games and enums as tables.\n\n")
	b.WriteString("/// Every game by registry name, in the order of the protocol's oneof cases.\n")
	fmt.Fprintf(&b, "pub const GAMES: &[&str] = &[%s];\n\n", quoteAll(s.Names()))
	b.WriteString("/// Each game's (name, setup, observation, action) message names.\npub const GAME_MESSAGES: &[(&str, &str, &str, &str)] = &[\n")
	lines(&b, s.Games, func(g Game) string {
		return fmt.Sprintf("    (%s, %s, %s, %s),", quote(g.Name), quote(g.Setup.Name), quote(g.Observation.Name), quote(g.Action.Name))
	})
	b.WriteString("];\n\n/// Every enum: its name and its value names, indexed by number.\npub const ENUMS: &[(&str, &[&str])] = &[\n")
	lines(&b, s.Enums, func(e *Enum) string { return fmt.Sprintf("    (%s, &[%s]),", quote(e.Name), quoteAll(e.Values)) })
	b.WriteString("];\n")
	return []byte(b.String())
}

func javaFile(s *Schema) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n\npackage arena;\n\nimport java.util.List;\nimport java.util.Map;\n\n", Header)
	b.WriteString("/** The protocol's games and enums as tables. */\npublic final class Tables {\n  private Tables() {}\n\n")
	b.WriteString("  /** Every game by registry name, in the order of the protocol's oneof cases. */\n")
	fmt.Fprintf(&b, "  public static final List<String> GAMES = List.of(%s);\n\n", quoteAll(s.Names()))
	b.WriteString("  /** Each game's setup, observation and action message names. */\n  public static final Map<String, List<String>> GAME_MESSAGES = Map.ofEntries(")
	for i, g := range s.Games {
		sep := ","
		if i == len(s.Games)-1 {
			sep = ");"
		}
		fmt.Fprintf(&b, "\n      Map.entry(%s, List.of(%s, %s, %s))%s", quote(g.Name), quote(g.Setup.Name), quote(g.Observation.Name), quote(g.Action.Name), sep)
	}
	b.WriteString("\n\n  /** Every enum's value names, indexed by number. */\n  public static final Map<String, List<String>> ENUMS = Map.ofEntries(")
	for i, e := range s.Enums {
		sep := ","
		if i == len(s.Enums)-1 {
			sep = ");"
		}
		fmt.Fprintf(&b, "\n      Map.entry(%s, List.of(%s))%s", quote(e.Name), quoteAll(e.Values), sep)
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

func cppFile(s *Schema) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n\n", Header)
	b.WriteString("// The protocol's games and enums as tables.\n#pragma once\n\n#include <cstddef>\n#include <string_view>\n\nnamespace arena::tables {\n\n")
	b.WriteString("// Every game by registry name, in the order of the protocol's oneof cases.\n")
	fmt.Fprintf(&b, "inline constexpr std::string_view games[] = {%s};\n\n", quoteAll(s.Names()))
	b.WriteString("// Each game's setup, observation and action message names.\nstruct GameMessages {\n  std::string_view game, setup, observation, action;\n};\n")
	b.WriteString("inline constexpr GameMessages game_messages[] = {\n")
	lines(&b, s.Games, func(g Game) string {
		return fmt.Sprintf("    {%s, %s, %s, %s},", quote(g.Name), quote(g.Setup.Name), quote(g.Observation.Name), quote(g.Action.Name))
	})
	b.WriteString("};\n\n// Every enum's value names, indexed by number.\n")
	lines(&b, s.Enums, func(e *Enum) string {
		return fmt.Sprintf("inline constexpr std::string_view %s[] = {%s};", e.Name, quoteAll(e.Values))
	})
	b.WriteString("\nstruct Enum {\n  std::string_view name;\n  const std::string_view* values;\n  std::size_t count;\n};\ninline constexpr Enum enums[] = {\n")
	lines(&b, s.Enums, func(e *Enum) string { return fmt.Sprintf("    {%s, %s, %d},", quote(e.Name), e.Name, len(e.Values)) })
	b.WriteString("};\n\n}  // namespace arena::tables\n")
	return []byte(b.String())
}
