// The Foundation classes that appear in the SDK's Objective-C API (NSString, NSNumber,
// NSArray, NSError) plus NSLock, which the SDK uses and swift-corelibs-foundation cannot
// provide in this setting. Declarations only; nothing here is ever run.
#pragma once
#include "ObjectiveC.h"

typedef struct dispatch_queue_s *dispatch_queue_t;

NS_ASSUME_NONNULL_BEGIN

@interface NSString : NSObject
@property (readonly) NSUInteger length;
@end

@interface NSNumber : NSObject
- (instancetype)initWithInteger:(NSInteger)value __attribute__((swift_name("init(value:)")));
@property (readonly) int intValue;
@property (readonly) NSInteger integerValue;
@end

@interface NSArray<__covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
@end

@interface NSDictionary<__covariant KeyType, __covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
@end

@interface NSError : NSObject
@property (readonly, copy) NSString *domain;
@property (readonly) NSInteger code;
@end

@protocol NSLocking
- (void)lock;
- (void)unlock;
@end

@interface NSLock : NSObject <NSLocking>
- (void)lock;
- (void)unlock;
@end

NS_ASSUME_NONNULL_END
