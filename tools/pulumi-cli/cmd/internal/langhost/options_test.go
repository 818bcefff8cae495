package langhost

import (
	"maps"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
)

func TestReadOptions(t *testing.T) {
	known := []Option{{Name: "virtualenv"}, {Name: "typescript", Choices: []string{"true", "false"}}}
	read := func(options map[string]any) (map[string]string, error) {
		s, err := structpb.NewStruct(options)
		if err != nil {
			t.Fatal(err)
		}
		return ReadOptions(s, known...)
	}
	got, err := read(map[string]any{"virtualenv": "venv", "typescript": false})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"virtualenv": "venv", "typescript": "false"}; !maps.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if got, err := ReadOptions(nil, known...); err != nil || len(got) != 0 {
		t.Fatalf("no options: got %v, %v", got, err)
	}
	for _, c := range []struct {
		options map[string]any
		says    string
	}{
		{map[string]any{"virtualenvs": "venv"}, "Pulumi.yaml runtime.options.virtualenvs: not an option of this language host (virtualenv, typescript)"},
		{map[string]any{"virtualenv": 3}, "Pulumi.yaml runtime.options.virtualenv: must be a string"},
		{map[string]any{"typescript": "yes"}, `Pulumi.yaml runtime.options.typescript: must be true or false, not "yes"`},
	} {
		if _, err := read(c.options); err == nil || err.Error() != c.says {
			t.Errorf("%v: got %v, want %q", c.options, err, c.says)
		}
	}
}
