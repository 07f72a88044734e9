//! The gRPC codec remote subscribers are called with: the request is a
//! `hookgate.v1.HookEvent` already encoded, the reply a `Decision`.
//!
//! An event is encoded once (`convert::ProtoEvent::encoded`) and the same
//! bytes go to every remote subscriber that gets it, instead of tonic's
//! prost codec deep-copying and re-encoding the message for each call. The
//! wire is identical: a gRPC message is the protobuf encoding, framed by
//! tonic as usual (length prefix, size limits, no compression).

use prost::bytes::{BufMut as _, Bytes};
use tonic::Status;
use tonic::codec::{Codec, EncodeBuf, Encoder};
use tonic_prost::ProstDecoder;

use hookgate_proto::v1;

/// `Bytes` of an encoded `HookEvent` out, a decoded `Decision` in.
#[derive(Debug, Clone, Copy, Default)]
pub struct PreEncoded;

impl Codec for PreEncoded {
    type Encode = Bytes;
    type Decode = v1::Decision;
    type Encoder = BytesEncoder;
    /// Exactly what the generated client decodes replies with.
    type Decoder = ProstDecoder<v1::Decision>;

    fn encoder(&mut self) -> BytesEncoder {
        BytesEncoder
    }

    fn decoder(&mut self) -> Self::Decoder {
        ProstDecoder::default()
    }
}

/// Writes an already encoded message as the gRPC message body.
#[derive(Debug, Clone, Copy, Default)]
pub struct BytesEncoder;

impl Encoder for BytesEncoder {
    type Item = Bytes;
    type Error = Status;

    fn encode(&mut self, item: Bytes, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        dst.put_slice(&item);
        Ok(())
    }
}
