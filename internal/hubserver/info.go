package hubserver

import (
	"encoding/json"
	"fmt"

	"github.com/askuser/askuser/hub"
	"github.com/askuser/askuser/internal/hubstore"
)

// WriteInfo writes info to path, the hub's info file (hub.Paths.Info),
// readable and writable by its owner only, replacing any file there in
// one step.
func WriteInfo(path string, info hub.Info) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err == nil {
		err = hubstore.WritePrivate(path, append(data, '\n'))
	}
	if err != nil {
		return fmt.Errorf("write the hub's info file: %w", err)
	}
	return nil
}
