package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
)

// defaultDotnetLogo is the address .NET's generator downloads logo.png from when the schema names no logoUrl
// (pulumi-language-dotnet's codegen getLogo): Pulumi's logo in pulumi/pulumi's repository.
const defaultDotnetLogo = "https://raw.githubusercontent.com/pulumi/pulumi/" +
	"dbc96206bec722b7791a22ff50e895ab7c0abdc0/sdk/dotnet/pulumi_logo_64x64.png"

// logoFile holds those bytes here, beside the binary: scripts/pulumi-codegen.sh copies it from
// pulumi-language-dotnet's own module in the Go module cache (every SDK in its codegen's expected outputs holds
// that logo). This project's machines reach no address but the package registries, so without it the generator
// would fail; with it, it writes the file it would have downloaded.
const logoFile = "dotnet-logo.png"

// logoTransport answers the default logo's address from that file and sends every other request on.
type logoTransport struct {
	next http.RoundTripper
	file string
}

func (t logoTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.String() != defaultDotnetLogo || t.file == "" {
		return t.next.RoundTrip(req)
	}
	data, err := os.ReadFile(t.file)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be read (scripts/pulumi-codegen.sh puts it there): %w", t.file, err)
	}
	return &http.Response{
		StatusCode:    http.StatusOK,
		Status:        "200 OK",
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": []string{"image/png"}},
		Body:          io.NopCloser(bytes.NewReader(data)),
		ContentLength: int64(len(data)),
		Request:       req,
	}, nil
}

func serveDotnetLogoLocally() {
	file := ""
	if executable, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(executable); err == nil {
			file = filepath.Join(filepath.Dir(resolved), logoFile)
		}
	}
	http.DefaultTransport = logoTransport{next: http.DefaultTransport, file: file}
}
