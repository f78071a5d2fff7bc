// Spike for issue 24: h2o 2.2.5 driven from Swift. One evloop on this thread, a C handler that is
// a non-capturing closure, context through the handler struct, the response sent with
// h2o_send_inline. Run: ./h2o-swift PORT
import CH2O
import Glibc

final class App { var served = 0 }
let app = App()
let port = UInt16(CommandLine.arguments.dropFirst().first.flatMap { UInt16($0) } ?? 18430)

var config = h2o_globalconf_t()
h2o_config_init(&config)
config.max_request_entity_size = 65536
let host = spike_default_host(&config)!
let path = h2o_config_register_path(host, "/", 0)!
_ = spike_register(path, { handler, req in
    guard let handler, let req else { return -1 }
    let app = Unmanaged<App>.fromOpaque(handler.pointee.context).takeUnretainedValue()
    app.served += 1
    let method = String(decoding: UnsafeRawBufferPointer(start: req.pointee.method.base, count: req.pointee.method.len), as: UTF8.self)
    let target = String(decoding: UnsafeRawBufferPointer(start: req.pointee.path.base, count: req.pointee.path.len), as: UTF8.self)
    let body = "{\"served\":\(app.served),\"method\":\"\(method)\",\"target\":\"\(target)\",\"entity\":\(req.pointee.entity.len)}"
    req.pointee.res.status = 200
    req.pointee.res.reason = UnsafePointer(strdup("OK"))          // must outlive the response (leaks in the spike)
    h2o_add_header(&req.pointee.pool, &req.pointee.res.headers, spike_token_content_type(), nil, "application/json", 16)
    body.withCString { h2o_send_inline(req, $0, strlen($0)) }    // h2o_send_inline copies the body
    return 0
}, Unmanaged.passUnretained(app).toOpaque())

let loop = h2o_evloop_create()!
let context = UnsafeMutablePointer<h2o_context_t>.allocate(capacity: 1)
h2o_context_init(context, loop, &config)
let accept = UnsafeMutablePointer<h2o_accept_ctx_t>.allocate(capacity: 1)
accept.initialize(to: h2o_accept_ctx_t())
accept.pointee.ctx = context
accept.pointee.hosts = config.hosts

let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
var one: Int32 = 1
setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET); address.sin_port = port.bigEndian; address.sin_addr.s_addr = inet_addr("127.0.0.1")
let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
precondition(bound == 0 && listen(fd, 128) == 0, "bind/listen")
_ = fcntl(fd, F_SETFL, O_NONBLOCK)
let listener = h2o_evloop_socket_create(loop, fd, spike_flag_dont_read)!
listener.pointee.data = UnsafeMutableRawPointer(accept)
h2o_socket_read_start(listener) { listener, error in
    guard error == nil, let listener else { return }
    spike_accept(listener.pointee.data.assumingMemoryBound(to: h2o_accept_ctx_t.self), listener)
}
print("listening on \(port)"); fflush(nil)
var turns = 0
while h2o_evloop_run(loop, 1000) == 0 {
    turns += 1   // one epoll turn per call: here the Swift executor would drain its jobs
}
