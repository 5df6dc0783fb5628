//! Starting the server: a taken port and a bad host are reported.

#[test]
fn a_taken_port_is_reported() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let db = springboard_web::Database::Sqlite(
        std::env::temp_dir().join("springboard-taken-port.sqlite3"),
    );
    let err = springboard_web::run("127.0.0.1", port, &db, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("port {port} on 127.0.0.1 is already in use; choose another with --port")
    );
    let err = springboard_web::run("my-host", 0, &db, None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad host 'my-host': expected an IP address such as 127.0.0.1"
    );
}
