package hubserver

// ServerCert makes a certificate as the hub makes its own, for a server
// that poses as the hub.
var ServerCert = serverCert
