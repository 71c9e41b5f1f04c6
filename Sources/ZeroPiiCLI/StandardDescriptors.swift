import Foundation

/// Standard input, output and error as the process was started with them.
public enum StandardDescriptors {
    /// Puts a descriptor that cannot be used the wrong way on each of 0, 1 and 2 that
    /// was closed at start: `/dev/null` opened write-only on 0 and read-only on 1 and 2.
    /// Call it first, before anything opens a file. Otherwise the next file or eventfd
    /// opened takes the number (libdispatch's took 1 and received the tokens, and the
    /// run ended 0); this way reading a closed input and writing a closed output fail
    /// with "bad file descriptor", as they would have.
    public static func occupyClosed() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_WRONLY : O_RDONLY)
            // The lowest free number: the closed one, since the lower ones are taken.
            if opened >= 0 && opened != descriptor {
                _ = dup2(opened, descriptor)
                close(opened)
            }
        }
    }
}
