//go:build tools

// pulumi-language-yaml, the YAML language host, as a Go module (make pulumi-cli): it runs the
// YAML programs of the end-to-end suite and the workflow scripts' tests. pulumi-yaml v1.25.0 is
// built against the pkg/sdk version it names (v3.206.0): it does not compile against later ones.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"

// pulumi-converter-yaml, YAML's converter (`pulumi convert --from yaml`), from the same module: the docs'
// programs in every language are converted from their YAML.
import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-converter-yaml"
