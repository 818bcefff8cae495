package langhost

import (
	"fmt"
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"
)

// Option is one of Pulumi.yaml's `runtime.options` that a host reads.
type Option struct {
	Name string
	// Choices, if any, are the values allowed; a YAML true or false counts as "true" or "false".
	Choices []string
}

// ReadOptions reads Pulumi.yaml's `runtime.options` (what the engine sends as ProgramInfo.options),
// the same way in every host: each value a string (a boolean taken as "true" or "false"), one of the
// option's choices when it has some; an option the host does not know is an error, so that a typo
// does not pass silently. Options not set are absent from the map.
func ReadOptions(options *structpb.Struct, known ...Option) (map[string]string, error) {
	values := map[string]string{}
	names := make([]string, len(known))
	for i, o := range known {
		names[i] = o.Name
	}
	for name, value := range options.GetFields() {
		i := slices.IndexFunc(known, func(o Option) bool { return o.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("Pulumi.yaml runtime.options.%s: not an option of this language host (%s)", //nolint:staticcheck // the user's words
				name, strings.Join(names, ", "))
		}
		var text string
		switch v := value.GetKind().(type) {
		case *structpb.Value_StringValue:
			text = v.StringValue
		case *structpb.Value_BoolValue:
			text = fmt.Sprint(v.BoolValue)
		default:
			return nil, fmt.Errorf("Pulumi.yaml runtime.options.%s: must be a string", name) //nolint:staticcheck // the user's words
		}
		if choices := known[i].Choices; len(choices) > 0 && !slices.Contains(choices, text) {
			return nil, fmt.Errorf("Pulumi.yaml runtime.options.%s: must be %s or %s, not %q", //nolint:staticcheck // the user's words
				name, strings.Join(choices[:len(choices)-1], ", "), choices[len(choices)-1], text)
		}
		values[name] = text
	}
	return values, nil
}
