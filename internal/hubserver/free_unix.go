//go:build unix

package hubserver

import "golang.org/x/sys/unix"

// freeBytes is how many bytes an unprivileged user may still write on
// the disk of dir.
func freeBytes(dir string) (int64, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), nil
}
