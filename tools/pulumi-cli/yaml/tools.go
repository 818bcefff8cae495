//go:build tools

// Package tools pins Pulumi YAML's language host, which tools/install-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
)
