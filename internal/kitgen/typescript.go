package kitgen

import (
	"fmt"
	"slices"
	"strings"
)

// outgoingRoots are the messages a bot writes. A bot fills only the fields it needs, so their
// types (and those of every message they hold) make every field optional; what the host sends
// arrives with every field set (proto-loader's defaults option), so those are required.
var outgoingRoots = []string{"DescribeResponse", "StartResponse", "ActResponse", "EndResponse", "ActStreamResponse"}

func typeScriptFile(s *Schema) []byte {
	outgoing := map[string]bool{}
	var mark func(name string)
	mark = func(name string) {
		m := s.Message(name)
		if m == nil || outgoing[name] {
			return
		}
		outgoing[name] = true
		for _, f := range m.Fields {
			if f.Kind == "message" {
				mark(f.Type)
			}
		}
	}
	for _, r := range outgoingRoots {
		mark(r)
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n", Header)
	b.WriteString(`//
// The arena.v1 messages as @grpc/proto-loader hands them over with the options of server.ts
// (keepCase: proto field names; longs: Number; enums: String; defaults: true; oneofs: true,
// which adds a field naming the set case of every oneof). What the host sends has every field;
// what the bot answers (the responses and the actions) only the fields it sets.

`)
	b.WriteString("/** Every game by registry name, in the order of the protocol's oneof cases. */\n")
	b.WriteString("export type GameName = " + union(s.Names()) + ";\n")
	fmt.Fprintf(&b, "export const GAMES: readonly GameName[] = [%s];\n\n", quoteAll(s.Names()))
	b.WriteString("/** Each game's setup, observation and action message names. */\n")
	b.WriteString("export const GAME_MESSAGES: Readonly<Record<GameName, { setup: string; observation: string; action: string }>> = {\n")
	lines(&b, s.Games, func(g Game) string {
		return fmt.Sprintf("  %s: { setup: %s, observation: %s, action: %s },", g.Name, quote(g.Setup.Name), quote(g.Observation.Name), quote(g.Action.Name))
	})
	b.WriteString("};\n\n")
	lines(&b, s.Enums, func(e *Enum) string { return fmt.Sprintf("export type %s = %s;", e.Name, union(e.Values)) })
	b.WriteString("\n/** Every enum's value names, indexed by number. */\nexport const ENUMS: Readonly<Record<string, readonly string[]>> = {\n")
	lines(&b, s.Enums, func(e *Enum) string { return fmt.Sprintf("  %s: [%s],", e.Name, quoteAll(e.Values)) })
	b.WriteString("};\n\n")
	b.WriteString("/** A field of a message: kind int32 int64 uint32 uint64 double bool string bytes enum message. */\n")
	b.WriteString("export interface FieldInfo {\n  name: string;\n  json: string;\n  kind: string;\n  type: string;\n  label: \"\" | \"repeated\" | \"map\";\n}\n\n")
	b.WriteString("/** Every message's fields. */\nexport const MESSAGES: Readonly<Record<string, readonly FieldInfo[]>> = {\n")
	messageTable(&b, s, "  ", func(name string) string { return name + ": [" }, func(f Field) string {
		return fmt.Sprintf("{ name: %s, json: %s, kind: %s, type: %s, label: %s },", quote(f.Name), quote(f.JSON), quote(f.Kind), quote(f.Type), quote(f.Label))
	}, "],")
	b.WriteString("};\n")

	for _, m := range s.Messages {
		out := outgoing[m.Name]
		fmt.Fprintf(&b, "\nexport interface %s {\n", m.Name)
		var oneofs []string
		for _, f := range m.Fields {
			t := tsType(f)
			switch {
			case out:
				fmt.Fprintf(&b, "  %s?: %s;\n", f.Name, t)
			case f.Oneof != "":
				fmt.Fprintf(&b, "  %s?: %s | null;\n", f.Name, t)
			case f.Kind == "message" && f.Label == "":
				fmt.Fprintf(&b, "  %s: %s | null;\n", f.Name, t)
			default:
				fmt.Fprintf(&b, "  %s: %s;\n", f.Name, t)
			}
			if f.Oneof != "" && !slices.Contains(oneofs, f.Oneof) {
				oneofs = append(oneofs, f.Oneof)
			}
		}
		if !out {
			for _, o := range oneofs {
				fmt.Fprintf(&b, "  /** The name of the set case of the oneof %s. */\n  %s?: string;\n", o, o)
			}
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

func tsType(f Field) string {
	var t string
	switch f.Kind {
	case "int32", "int64", "uint32", "uint64", "double":
		t = "number"
	case "bool":
		t = "boolean"
	case "string":
		t = "string"
	case "bytes":
		t = "Uint8Array"
	default:
		t = f.Type
	}
	switch f.Label {
	case "repeated":
		return t + "[]"
	case "map":
		return "Record<string, " + t + ">"
	}
	return t
}

func union(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quote(n)
	}
	return strings.Join(q, " | ")
}
