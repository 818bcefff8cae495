module upgrade-go

require github.com/asset-delivery/asset-delivery-as-code/sdks/go v0.1.0
