package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// SubjectDevices is the subject on which a hub that serves its web page
// lists the devices paired with it, for askuser hub devices and for
// PairedDevices.
const SubjectDevices = "askuser.hub.web.devices"

// devicesWait bounds the hub's reply to PairedDevices.
const devicesWait = 5 * time.Second

// PairedDevices returns how many devices paired with the hub's web page
// may answer now: those not revoked. A hub that serves no page has none.
// A host that only the person at its terminal could otherwise answer
// asks it whether a question is worth offering on the hub.
func (c *Client) PairedDevices(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, devicesWait)
	defer cancel()
	data, err := c.Request(ctx, SubjectDevices, []byte("{}"))
	if errors.Is(err, nats.ErrNoResponders) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("ask the hub for its paired devices: %w", err)
	}
	var rep struct {
		Error   string `json:"error"`
		Devices []struct {
			Revoked *time.Time `json:"revoked"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return 0, fmt.Errorf("the hub's list of paired devices: %w", err)
	}
	if rep.Error != "" {
		return 0, fmt.Errorf("the hub's list of paired devices: %s", rep.Error)
	}
	n := 0
	for _, d := range rep.Devices {
		if d.Revoked == nil {
			n++
		}
	}
	return n, nil
}
