package hubserver_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/askuser/askuser/internal/hubserver"
)

// pub is a public key in the form askuser hub recipient prints.
const pub = "askuser-pub-PwAxMkIhRrYfpdxky-KNzmaHmdSh_1NOEgqW7iO2WJx9_KcMfvVsQ7ytnYjPgKEXdAXPIesKYqt2eFVSrZSr1kCgZcjCvcEnp5o_PRWl0RYJLVUF3oJ16go1wyBoLTHOvHGLpVI3b0RTnrOUoMtIsONJuvW8f-HKR5eWnUVB-Pi-YIgRUsVY0gKw8-uEbFmiVfufBtdcN0HIDTp80ozL_xRxw8x2oGsVlYBGBMFjBtI3utQwOzAPnjqd3QnPNIaPI1s02xSA42ipYUaEy3ad7eFV3oiS8kkVztYkxJxH3kZxMwkfORhEp5OCzWOFI9wSOkRuoZiE0WpH1We51XeSFgXEemGmUwyqqLbG08o2rKOmGatCG-w0hZuE5gq4BcDOSCUamXMwdhAaumBaGBCc7fs3h4ga_glbRAGx4ndK1Nc4l8x_q9ltoerEw4dZnaW8sFFe3qhfKZU4wTRoezt_cEZ8NAe0KyVW3FWU15JkSemsPctVmTCrJLQn6Eu-NCNHK3w6tlRV_ChHZmhM1VFu-SumwzFZwPmofQCiKIdxB9GyOXy1ClQA3hUnI3NzM8e25uCEzLA00IWWRiQ6rLA9RJWu_jETTXiip-c-jKiIpYY8odQF52obNlAGIIWs7ZZCkjlAkCc6fzOAZrOYCJOsnJBZxjh345dpDkqgSTAcimKhYot0XuKNx5ml4oYruSMeWHNL4jdo0SxzotSXa7ZGFRB-yktkWpORS5MKefK3DRNCsCycoMO5ZLtWVktNqCoohXCiSsshd0B9veBzxhJZIfnOl0pzuni2JdSIYbaS3vrMaUtG1-W1U0GGnoQPN4wQMdjCPXZ9nNc7fHwV8AA_lrVyd8vJmBt6jkm6gMmrTqEgAQCFVMx27fc2wzdgxGhvMKMe4pZJPBqykgKK94YfB7tDWJyqAcm0SbyXfXdnJPQ2V8hjInGTU2qtguUQBKmQGJKmCEZKLeNUcpMeGcIPVVuAkfQnWUJZzxBYpIUnmaCJ3gBtU9a5XTODYvOeGHBSzoZqcZpsuNsW5QQCmviBZNJoEZpClmEcn_lkd6lPQbkBoPNfuqJKTZKNEFBHSkKAACbKN-Ma85ZJzAmFH5vJu1m3W0SWAbWLIZQJdgHF2hQ3sGt3tHME6bBeb-HHFDcwoceW1YCAUoqfpfZhdylVHiQrxorMPXoX_nu7oqxX68gf-EMs4NIdLfFmsPWcpiYQT6Fm3qwMdoNITBCRLLe7MCQocgpAe-ZRwmmVJZXG2kdUkVkaLsUDGLhDXWIsE3CcD7MrCbp2IGCRl0y55uFhH6VebOkpHPGCk3jJEJC1aNRyGSVK7uu7RPJsf3WYASVSpHdMGUEc2Qus0lghGFQrACR7t5Gf4qTExbUWF-CBzxaDQ2ACcwY2l4euaYhuLJCM_CgKjTm45_UdylkEtDtIdHnKowfFwFKnmHtIgZYVUJyR6YXEK7Ut1woHa7y_gYOHufiUhooHOhZTItin_JOsBegFncrKKwQ3qTEbZDkARmRsSus2pdM87ElR8TdfweOOI3sZQB93YKNZveBhfJw4ck2ccrhsDvDSKpzxQn2xoQe0Dgo7sZEcLGA7K9VMTh9TtIz7RdKkEdvOmDON8pXDcEVIUBmYc4Zvuar4r1aw0GH-TdQ-b5dKL-W87GBpv50M"

// TestRemoteConfig reads the hub config's remote: a good one whole, and
// each mistake with the member that holds it.
func TestRemoteConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // the error says each; none: accepted
	}{
		{"good", `{"remote": {"url": "tls://a:4222, nats://b:4222", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"]}}`, nil},
		{"good with replicas", `{"remote": {"url": "nats://a:4222", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"], "replicas": 5}}`, nil},
		{"empty", `{"remote": {}}`, []string{"remote.url: is required", "remote.credentials: is required", "remote.recipients: must list at least one public key"}},
		{"wrong", `{"remote": {"url": "http://u:p@x:1", "credentials": "hub.creds", "recipients": ["XABC"]}}`, []string{
			`remote.url: must be nats://HOST:PORT or tls://HOST:PORT, without a user or password (those go in credentials), got "http://u:p@x:1"`,
			`remote.credentials: must be an absolute path, got "hub.creds"`,
			`remote.recipients[0]: a public key starts with askuser-pub-; got "XABC"`}},
		{"short key", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["askuser-pub-AAAA"]}}`, []string{
			"remote.recipients[0]: a public key is askuser-pub- and 1664 characters of base64url"}},
		{"types", `{"remote": {"url": 1, "credentials": "/c", "recipients": "x"}}`, []string{"remote.url: must be a string", "remote.recipients: must be an array"}},
		{"replicas", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "replicas": 0}}`, []string{"remote.replicas: must be a whole number from 1 to 5", "got 0"}},
		{"replicas type", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "replicas": 2.5}}`, []string{"remote.replicas: must be a whole number", "got 2.5"}},
		{"unknown member", `{"remote": {"url": "nats://a:1", "token": "t"}}`, []string{"remote", "token"}},
		{"leaf", `{"remote": {"url": "tls://a:7422", "credentials": "/c/hub.creds", "recipients": ["` + pub + `"], "leaf": {"domain": "askuser-1"}}}`, nil},
		{"leaf without domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {}}}`, []string{
			"remote.leaf.domain: is required: the JetStream domain of the cluster"}},
		{"leaf domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "a.b"}}}`, []string{
			`remote.leaf.domain: must be letters, digits, _ and -, got "a.b"`}},
		{"leaf reserved domain", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "FC"}}}`, []string{
			`remote.leaf.domain: "FC" is reserved by JetStream`}},
		{"leaf true", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": true}}`, []string{
			`remote.leaf: `, `it is {"domain": "…"}, the cluster's JetStream domain`}},
		{"leaf member", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": "d", "hub": true}}}`, []string{
			`remote.leaf: `, "hub"}},
		{"leaf domain type", `{"remote": {"url": "nats://a:1", "credentials": "/c", "recipients": ["` + pub + `"], "leaf": {"domain": 1}}}`, []string{
			`remote.leaf.domain: must be a string`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := hubserver.ParseConfig([]byte(tt.in))
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if c.Remote == nil || c.Remote.Credentials != "/c/hub.creds" || !slices.Equal(c.Remote.Recipients, []string{pub}) {
					t.Fatalf("remote = %+v", c.Remote)
				}
				if leaf := strings.Contains(tt.in, `"leaf"`); leaf != (c.Leaf != nil) || leaf && c.Leaf.Domain != "askuser-1" {
					t.Fatalf("leaf = %+v", c.Leaf)
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted: %+v", c.Remote)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
