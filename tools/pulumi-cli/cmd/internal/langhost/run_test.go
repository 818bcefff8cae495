package langhost

import (
	"os/exec"
	"slices"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
)

func TestRunProgramAnswersAsPulumisHostsDo(t *testing.T) {
	for _, c := range []struct {
		script string
		want   *pulumirpc.RunResponse
	}{
		{"exit 0", &pulumirpc.RunResponse{}},
		// The program has reported its error through the engine: the engine adds nothing.
		{"exit 32", &pulumirpc.RunResponse{Bail: true}},
		{"exit 3", &pulumirpc.RunResponse{Error: "program exited with non-zero exit code: 3"}},
		{"kill -9 $$", &pulumirpc.RunResponse{Error: "program exited due to a signal: killed"}},
	} {
		got := RunProgram(exec.Command("sh", "-c", c.script))
		if !proto.Equal(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.script, got, c.want)
		}
	}
	got := RunProgram(exec.Command("/no/such/program"))
	if want := "problem executing program (could not run language executor): fork/exec /no/such/program: no such file or directory"; got.GetError() != want {
		t.Errorf("a program that cannot start: got %q", got.GetError())
	}
}

func TestConfigEnvSendsEmptyObjectsNotNull(t *testing.T) {
	env, err := ConfigEnv(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PULUMI_CONFIG={}", "PULUMI_CONFIG_SECRET_KEYS=[]"}; !slices.Equal(env, want) {
		t.Fatalf("a stack without config: %q, want %q", env, want)
	}
	env, err = ConfigEnv(map[string]string{"project:token": "s3cret", "project:name": "a\"b"}, []string{"project:token"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`PULUMI_CONFIG={"project:name":"a\"b","project:token":"s3cret"}`, `PULUMI_CONFIG_SECRET_KEYS=["project:token"]`}; !slices.Equal(env, want) {
		t.Fatalf("got %q, want %q", env, want)
	}
}
