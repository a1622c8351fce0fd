package kernel

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Run serves the Jupyter kernel described by the connection file connFile,
// dispatching requests to eng, and logs to logw. It returns nil after a
// shutdown_request (once its reply is sent and eng.Shutdown has returned),
// after SIGTERM, or when ctx is cancelled; it returns an error when the
// connection file is unusable, a socket cannot be bound or MaxMessageSizeEnv
// is set to something that is not a size. An empty key in the connection file
// is accepted (messages are then unsigned) with a warning on logw.
//
// SIGINT interrupts the running execution and never stops the kernel: Run
// calls signal.Notify for SIGINT and SIGTERM until it returns.
func Run(ctx context.Context, connFile string, eng Engine, logw io.Writer) error {
	cfg := defaultConfig()
	size, err := maxMessageSizeFromEnv()
	if err != nil {
		return err
	}
	cfg.maxMsgSize = size
	return run(ctx, connFile, eng, logw, cfg)
}

func run(ctx context.Context, connFile string, eng Engine, logw io.Writer, cfg config) error {
	ci, err := ReadConnectionFile(connFile)
	if err != nil {
		return err
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	k, err := newKernel(ci, eng, logw, cfg)
	if err != nil {
		return err
	}
	k.log.Printf("listening on %s (shell) as session %s", ci.Endpoint(ci.ShellPort), k.session)
	k.serve(ctx, sigs)
	return nil
}

// serve runs the kernel until a shutdown request, SIGTERM or ctx ends it,
// then shuts it down.
func (k *kernel) serve(ctx context.Context, sigs <-chan os.Signal) {
	k.start()
	k.publishStatus("starting", nil)
	restart := false
	for stop := false; !stop; {
		select {
		case <-ctx.Done():
			k.log.Printf("context cancelled: shutting down")
			stop = true
		case restart = <-k.stopReq:
			k.log.Printf("shutdown requested (restart %v)", restart)
			stop = true
		case s := <-sigs:
			if s == os.Interrupt {
				k.log.Printf("SIGINT: interrupting the running execution")
				k.running.interrupt()
				continue
			}
			k.log.Printf("%v: shutting down", s)
			stop = true
		}
	}
	k.shutdown(restart)
}
