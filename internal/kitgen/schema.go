package kitgen

import (
	"fmt"
	"slices"

	"google.golang.org/protobuf/reflect/protoreflect"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Schema is what the generators need from the protos: the games and every message and enum of
// the contract, in declaration order (imported files first).
type Schema struct {
	Games    []Game
	Messages []*Message
	Enums    []*Enum
}

// Game is one game: its registry name (the oneof case name) and its three messages.
type Game struct {
	Name                       string
	Setup, Observation, Action *Message
}

// Message is one protobuf message of arena.v1.
type Message struct {
	Name   string
	Fields []Field
	desc   protoreflect.MessageDescriptor
}

// Field is one field of a message.
type Field struct {
	Name  string // proto name, snake_case
	JSON  string // lowerCamelCase, as protojson writes it
	Kind  string // int32 int64 uint32 uint64 double bool string bytes enum message
	Type  string // the enum's or message's name for those kinds
	Label string // "" (singular), "repeated" or "map" (keys are MapKey, values Kind/Type)
	// MapKey is the kind of a map's keys.
	MapKey string
	// Oneof names the oneof a field belongs to ("" for none).
	Oneof string
}

// Enum is one enum of arena.v1, its value names indexed by number (the numbers are dense
// from 0, which Load checks).
type Enum struct {
	Name   string
	Values []string
}

// The oneofs of the service messages whose case names are the games.
const (
	setupOneof       = "setup"
	observationOneof = "observation"
	actionOneof      = "action"
)

// Load reads the schema from the compiled descriptors of arenav1.
func Load() (*Schema, error) {
	return load(arenav1.File_arena_v1_bot_proto)
}

func load(root protoreflect.FileDescriptor) (*Schema, error) {
	s := &Schema{}
	seen := map[string]bool{}
	var walk func(f protoreflect.FileDescriptor) error
	walk = func(f protoreflect.FileDescriptor) error {
		if seen[f.Path()] {
			return nil
		}
		seen[f.Path()] = true
		for i := 0; i < f.Imports().Len(); i++ {
			if imp := f.Imports().Get(i); imp.Package() == root.Package() {
				if err := walk(imp.FileDescriptor); err != nil {
					return err
				}
			}
		}
		for i := 0; i < f.Enums().Len(); i++ {
			e, err := enumOf(f.Enums().Get(i))
			if err != nil {
				return err
			}
			s.Enums = append(s.Enums, e)
		}
		for i := 0; i < f.Messages().Len(); i++ {
			m, err := messageOf(f.Messages().Get(i))
			if err != nil {
				return err
			}
			s.Messages = append(s.Messages, m)
		}
		return nil
	}
	if err := walk(root); err != nil {
		return nil, err
	}
	games, err := s.games()
	if err != nil {
		return nil, err
	}
	s.Games = games
	return s, nil
}

func enumOf(d protoreflect.EnumDescriptor) (*Enum, error) {
	e := &Enum{Name: string(d.Name())}
	for i := 0; i < d.Values().Len(); i++ {
		v := d.Values().Get(i)
		if int(v.Number()) != i {
			return nil, fmt.Errorf("kitgen: enum %s: value %s is %d, want %d: the kits index enum names by number, so number the values 0, 1, 2... without gaps",
				e.Name, v.Name(), v.Number(), i)
		}
		e.Values = append(e.Values, string(v.Name()))
	}
	return e, nil
}

func messageOf(d protoreflect.MessageDescriptor) (*Message, error) {
	if d.Messages().Len() > 0 && !d.Messages().Get(0).IsMapEntry() || d.Enums().Len() > 0 {
		return nil, fmt.Errorf("kitgen: message %s declares a nested message or enum: declare it at the top level of its file (the kits name types flat)", d.Name())
	}
	m := &Message{Name: string(d.Name()), desc: d}
	for i := 0; i < d.Fields().Len(); i++ {
		fd := d.Fields().Get(i)
		f := Field{Name: string(fd.Name()), JSON: fd.JSONName()}
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() {
			f.Oneof = string(o.Name())
		}
		v := fd
		switch {
		case fd.IsMap():
			f.Label, f.MapKey = "map", kindOf(fd.MapKey())
			v = fd.MapValue()
		case fd.IsList():
			f.Label = "repeated"
		}
		f.Kind = kindOf(v)
		switch v.Kind() {
		case protoreflect.EnumKind:
			f.Type = string(v.Enum().Name())
		case protoreflect.MessageKind, protoreflect.GroupKind:
			f.Type = string(v.Message().Name())
		}
		m.Fields = append(m.Fields, f)
	}
	return m, nil
}

// kindOf names a field's kind as the kits read it: every 32-bit and 64-bit integer encoding
// reads the same way in JSON, and so do float and double.
func kindOf(fd protoreflect.FieldDescriptor) string {
	switch fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return "int64"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64"
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		return "double"
	case protoreflect.BoolKind:
		return "bool"
	case protoreflect.StringKind:
		return "string"
	case protoreflect.BytesKind:
		return "bytes"
	case protoreflect.EnumKind:
		return "enum"
	}
	return "message"
}

// Message is the named message, or nil.
func (s *Schema) Message(name string) *Message {
	for _, m := range s.Messages {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// games reads the games from the oneofs whose case names are the games, and checks that the
// three agree: a game with a setup but no action (say) is an error naming what is missing.
func (s *Schema) games() ([]Game, error) {
	cases := func(msg, oneof string) (map[string]*Message, []string, error) {
		m := s.Message(msg)
		if m == nil {
			return nil, nil, fmt.Errorf("kitgen: arena.v1 has no message %s", msg)
		}
		out, order := map[string]*Message{}, []string(nil)
		for _, f := range m.Fields {
			if f.Oneof == oneof {
				if f.Kind != "message" {
					return nil, nil, fmt.Errorf("kitgen: %s.%s case %s is a %s, want a message", msg, oneof, f.Name, f.Kind)
				}
				out[f.Name], order = s.Message(f.Type), append(order, f.Name)
			}
		}
		if len(order) == 0 {
			return nil, nil, fmt.Errorf("kitgen: %s has no oneof %s (the cases name the games)", msg, oneof)
		}
		return out, order, nil
	}
	setups, _, err := cases("StartRequest", setupOneof)
	if err != nil {
		return nil, err
	}
	observations, order, err := cases("ActRequest", observationOneof)
	if err != nil {
		return nil, err
	}
	actions, _, err := cases("ActResponse", actionOneof)
	if err != nil {
		return nil, err
	}
	ends, _, err := cases("EndRequest", observationOneof)
	if err != nil {
		return nil, err
	}
	var games []Game
	for _, name := range order {
		g := Game{Name: name, Setup: setups[name], Observation: observations[name], Action: actions[name]}
		var missing []string
		if g.Setup == nil {
			missing = append(missing, "StartRequest.setup")
		}
		if g.Action == nil {
			missing = append(missing, "ActResponse.action")
		}
		if ends[name] != g.Observation {
			missing = append(missing, "EndRequest.observation (with the same observation message)")
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("kitgen: game %s is a case of ActRequest.observation but not of %v: add it there (bot.proto)", name, missing)
		}
		games = append(games, g)
	}
	for _, m := range []map[string]*Message{setups, actions, ends} {
		for name := range m {
			if observations[name] == nil {
				return nil, fmt.Errorf("kitgen: %s is a game case of a oneof but not of ActRequest.observation: add it there (bot.proto)", name)
			}
		}
	}
	return games, nil
}

// Names lists the games' names in the protocol's order.
func (s *Schema) Names() []string {
	var out []string
	for _, g := range s.Games {
		out = append(out, g.Name)
	}
	return slices.Clip(out)
}
