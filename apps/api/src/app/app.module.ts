import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AttachmentsModule } from '../agent/attachments/attachments.module';
import { ConsentModule } from '../agent/consent/consent.module';
import { DeleteModule } from '../agent/delete/delete.module';
import { SendModule } from '../agent/send/send.module';
import { SessionActionsModule } from '../agent/session/session-actions.module';
import { CallbacksModule } from '../callbacks/callbacks.module';
import { DeviceAuthModule } from '../device-auth/device-auth.module';
import { ApiKeysService } from '../common/auth/api-keys.service';
import { AuthGuard } from '../common/auth/auth.guard';
import { KeyRateLimit } from '../common/auth/key-rate-limit';
import { BodyKindGuard } from '../common/http/multipart';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { HealthController } from '../health/health.controller';
import { KeyRevocations } from '../keys/key-revocations';
import { KeysModule } from '../keys/keys.module';
import { MeController } from '../me/me.controller';
import { RetrievalModule } from '../retrieval/retrieval.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { UploadsModule } from '../uploads/uploads.module';
import { SignalBus } from '../signals/signal-bus';
import { SignalsModule } from '../signals/signals.module';
import { IdempotencyService } from '../common/http/idempotency';
import { SendSerials } from '../common/http/send-serials';
import { SettingsModule } from '../settings/settings.module';
import type { Runtime } from './runtime';
import { CLOCK, CONFIG, MESSENGER, SANDBOX, SERIALS, STORE } from './tokens';

/** The ports and the auth services every feature module uses. */
@Global()
@Module({})
class CoreModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    const ports = [
      { provide: CONFIG, useValue: runtime.config },
      { provide: STORE, useValue: runtime.store },
      { provide: CLOCK, useValue: runtime.clock },
      { provide: MESSENGER, useValue: runtime.messenger },
      { provide: SERIALS, useValue: runtime.serials },
      { provide: SANDBOX, useValue: runtime.sandbox },
    ];
    return {
      module: CoreModule,
      providers: [...ports, ApiKeysService, KeyRateLimit, BrandAccessService, IdempotencyService, SendSerials, SignalBus, KeyRevocations, { provide: APP_GUARD, useClass: AuthGuard }, { provide: APP_GUARD, useClass: BodyKindGuard }],
      exports: [...ports.map((p) => p.provide), ApiKeysService, KeyRateLimit, BrandAccessService, IdempotencyService, SendSerials, SignalBus, KeyRevocations],
    };
  }
}

@Module({})
export class AppModule {
  static forRuntime(runtime: Runtime): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRuntime(runtime), SendModule, SessionActionsModule, DeleteModule, ConsentModule, UploadsModule, AttachmentsModule, SignalsModule, RetrievalModule, CallbacksModule, SettingsModule, DeviceAuthModule, KeysModule, ...(runtime.sandbox ? [SandboxModule] : [])],
      controllers: [HealthController, MeController],
    };
  }
}
