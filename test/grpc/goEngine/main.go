// A stand-in for the Pulumi engine's side of the wire, in the engine's language and gRPC library
// (grpc-go), so that the plugin is also driven by the client it meets in real use, not only by
// grpc-js. It dials the plugin as the engine's dialPlugin does (sdk/go/common/resource/plugin/
// plugin.go: connect at once and wait until the connection is Ready), then makes the test's calls,
// each on a goroutine of its own, as the engine's steps do:
//
//	go-engine <port> <deadline in seconds, for each call>
//	stdout, first line:  {"readyMs": <dial → Ready>}
//	stdin, a line each:  {"id": 1, "method": "/pulumirpc.ResourceProvider/Check", "request": "<base64>"}
//	stdout, a line each: {"id": 1, "code": 0, "message": "", "response": "<base64>", "status": "<base64 google.rpc.Status>"}
//	or a batch, sent at once (the benchmarks' engine side):
//	stdin:               {"id": 2, "batch": [{"method": "...", "request": "<base64>"}, ...], "parallelism": 16}
//	stdout:              {"id": 2, "wallMs": 812.5, "answers": [{"code": 0, "response": "<base64>"}, ...]}
//
// Messages stay bytes here: the test builds and reads them with the protobuf stubs the rest of the
// suite uses. Built by test/grpc/goEngine.ts, a Go module (go.mod) at the grpc-go version of the engine
// the project pins (tools/pulumi/go.mod).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/golang/protobuf/proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/status"
)

// The engine's receive limit (sdk/go/common/util/rpcutil: GrpcChannelOptions; it leaves the send
// limit at grpc-go's default, which is larger) and its connection timeout.
const maxMessageBytes = 400 * 1024 * 1024
const connectTimeout = 10 * time.Second

// raw replaces grpc-go's proto codec (same name, so calls go out as application/grpc, as the
// engine's do): messages stay bytes.
type raw struct{}

func (raw) Marshal(v interface{}) ([]byte, error) { return *(v.(*[]byte)), nil }
func (raw) Unmarshal(data []byte, v interface{}) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (raw) Name() string { return "proto" }

type call struct {
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Request []byte `json:"request"`
	// A batch instead of one call: every request sent `parallelism` at a time (0: all at once), as
	// the engine's steps are; the answer is the wall time and each call's answer.
	Batch       []call `json:"batch,omitempty"`
	Parallelism int    `json:"parallelism,omitempty"`
}

type batchAnswer struct {
	ID      int      `json:"id"`
	WallMs  float64  `json:"wallMs"`
	Answers []answer `json:"answers"`
}

func invokeAll(conn *grpc.ClientConn, calls []call, parallelism int, deadline time.Duration) batchAnswer {
	if parallelism <= 0 {
		parallelism = len(calls)
	}
	answers := make([]answer, len(calls))
	slots := make(chan struct{}, parallelism)
	var all sync.WaitGroup
	started := time.Now()
	for i, c := range calls {
		all.Add(1)
		slots <- struct{}{}
		go func(i int, c call) {
			defer func() { <-slots; all.Done() }()
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			answers[i] = invoke(ctx, conn, c.Method, c.Request)
		}(i, c)
	}
	all.Wait()
	return batchAnswer{WallMs: time.Since(started).Seconds() * 1000, Answers: answers}
}

type answer struct {
	ID       int    `json:"id"`
	Code     uint32 `json:"code"`
	Message  string `json:"message"`
	Response []byte `json:"response,omitempty"`
	Status   []byte `json:"status,omitempty"`
}

func invoke(ctx context.Context, conn *grpc.ClientConn, method string, request []byte) answer {
	var response []byte
	err := conn.Invoke(ctx, method, &request, &response)
	if err == nil {
		return answer{Response: response}
	}
	st := status.Convert(err)
	details, _ := proto.Marshal(st.Proto())
	return answer{Code: uint32(st.Code()), Message: st.Message(), Status: details}
}

func main() {
	encoding.RegisterCodec(raw{})
	seconds, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: go-engine <port> <deadline in seconds>")
		os.Exit(2)
	}
	deadline := time.Duration(seconds) * time.Second
	started := time.Now()
	conn, err := grpc.NewClient("127.0.0.1:"+os.Args[1], grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(maxMessageBytes)))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer conn.Close()
	conn.Connect()

	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	for s := conn.GetState(); s != connectivity.Ready; s = conn.GetState() {
		if !conn.WaitForStateChange(ctx, s) {
			fmt.Fprintln(os.Stderr, "plugin did not begin responding to RPC connections")
			os.Exit(1)
		}
	}
	ready := time.Since(started)
	var writing sync.Mutex
	out := json.NewEncoder(os.Stdout)
	write := func(v interface{}) {
		writing.Lock()
		defer writing.Unlock()
		out.Encode(v)
	}
	write(map[string]interface{}{"readyMs": ready.Seconds() * 1000})

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1024*1024), maxMessageBytes)
	var calls sync.WaitGroup
	for in.Scan() {
		var c call
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		calls.Add(1)
		go func() {
			defer calls.Done()
			if c.Batch != nil {
				a := invokeAll(conn, c.Batch, c.Parallelism, deadline)
				a.ID = c.ID
				write(a)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			a := invoke(ctx, conn, c.Method, c.Request)
			a.ID = c.ID
			write(a)
		}()
	}
	calls.Wait()
}
