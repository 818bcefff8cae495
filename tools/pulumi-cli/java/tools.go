//go:build tools

// Package tools pins Pulumi's Java language host, which tools/install-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
)
