//! `empires serve`: the web door of the host ([`empires_web`]), on a runtime of its own with
//! a thread for each core.

use crate::error::Result;
use empires_web::serve::{ServeOptions, serve};

/// Serves until Ctrl-C.
pub fn run(options: ServeOptions) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| crate::error::Error::new(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(serve(options, std::io::stdout()))?;
    Ok(())
}
