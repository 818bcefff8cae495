// Sources of one environment, declared in Java with the generated SDK (com.github.assetdelivery.
// assetdelivery, Maven's io.github.asset-delivery:assetdelivery) and run by the native plugin. The
// stack's config says which environment (java-native:env) and holds the account's address and key
// and the origin's password, the last two set with --secret.
package myproject;

import com.github.assetdelivery.assetdelivery.AssetdeliveryFunctions;
import com.github.assetdelivery.assetdelivery.Provider;
import com.github.assetdelivery.assetdelivery.ProviderArgs;
import com.github.assetdelivery.assetdelivery.Source;
import com.github.assetdelivery.assetdelivery.SourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.GetSourceArgs;
import com.github.assetdelivery.assetdelivery.inputs.WebfolderDeploymentArgs;
import com.pulumi.Pulumi;
import com.pulumi.deployment.InvokeOptions;
import com.pulumi.resources.CustomResourceOptions;
import java.util.List;
import java.util.Map;

public class App {
    public static void main(String[] args) {
        Pulumi.run(ctx -> {
            var cfg = ctx.config();
            var env = cfg.require("env");
            var cacheTtl = cfg.getInteger("cacheTtlSeconds").orElse(86400);

            // An explicit provider: this environment's account (a second account would be another provider).
            var account = new Provider("account", ProviderArgs.builder()
                .baseUrl(cfg.require("baseUrl"))
                .apiKey(cfg.requireSecret("apiKey"))
                .build());

            // `deployment` takes any of the deployment types (the SDK types it Object): the builder of
            // the one wanted, here WebfolderDeploymentArgs.
            var photos = new Source("photos", SourceArgs.builder()
                .name(String.format("Photos (%s)", env))
                .deployment(WebfolderDeploymentArgs.builder()
                    .type("webfolder")
                    .serviceSubdomains(List.of(String.format("java-native-photos-%s", env)))
                    .webfolderBaseUrl("https://origin.example.com/photos/")
                    .username("delivery")
                    .password(cfg.requireSecret("originPassword")) // secret in the state, nested where it lives
                    .cacheTtlBehavior("override_origin")
                    .cacheTtlValue(cacheTtl)
                    .defaultParams(Map.of("auto", "format,compress"))
                    .build())
                .build(), CustomResourceOptions.builder().provider(account).build());

            // An invoke: the Source as the server has it, through the same account.
            var live = AssetdeliveryFunctions.getSource(GetSourceArgs.builder().id(photos.id()).build(),
                InvokeOptions.builder().provider(account).build());

            ctx.export("photosId", photos.id());
            ctx.export("status", live.applyValue(source -> source.deploymentStatus()));
            ctx.export("passwordSet", photos.passwordSet());
        });
    }
}
