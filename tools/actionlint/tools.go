//go:build tools

// Package tools pins the actionlint command that test/support/actionlint.ts builds.
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
