// Sources of one environment, declared in Go with the generated SDK (github.com/asset-delivery/
// asset-delivery-as-code/sdks/go/assetdelivery) and run by the native plugin. The stack's config
// says which environment (go-native:env) and holds the account's address and key and the origin's
// password, the last two set with --secret.
package main

import (
	"github.com/asset-delivery/asset-delivery-as-code/sdks/go/assetdelivery"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		env := cfg.Require("env")
		cacheTTL := cfg.GetInt("cacheTtlSeconds")
		if cacheTTL == 0 {
			cacheTTL = 86400
		}

		// An explicit provider: this environment's account (a second account would be another provider).
		account, err := assetdelivery.NewProvider(ctx, "account", &assetdelivery.ProviderArgs{
			BaseUrl: pulumi.String(cfg.Require("baseUrl")),
			ApiKey:  cfg.RequireSecret("apiKey"),
		})
		if err != nil {
			return err
		}

		photos, err := assetdelivery.NewSource(ctx, "photos", &assetdelivery.SourceArgs{
			Name: pulumi.Sprintf("Photos (%s)", env),
			Deployment: assetdelivery.WebfolderDeploymentArgs{
				Type:              pulumi.String("webfolder"),
				ServiceSubdomains: pulumi.StringArray{pulumi.Sprintf("go-native-photos-%s", env)},
				WebfolderBaseUrl:  pulumi.String("https://origin.example.com/photos/"),
				Username:          pulumi.String("delivery"),
				Password:          cfg.RequireSecret("originPassword"), // secret in the state, nested where it lives
				CacheTtlBehavior:  pulumi.String("override_origin"),
				CacheTtlValue:     pulumi.Int(cacheTTL),
				DefaultParams:     pulumi.Map{"auto": pulumi.String("format,compress")},
			},
		}, pulumi.Provider(account))
		if err != nil {
			return err
		}

		// An invoke: the Source as the server has it, through the same account.
		live := assetdelivery.LookupSourceOutput(ctx, assetdelivery.LookupSourceOutputArgs{
			Id: photos.ID().ToStringOutput(),
		}, pulumi.Provider(account))

		ctx.Export("photosId", photos.ID())
		ctx.Export("status", live.DeploymentStatus())
		ctx.Export("passwordSet", photos.PasswordSet)
		return nil
	})
}
