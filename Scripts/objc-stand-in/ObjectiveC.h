// The part of Apple's objc/NSObject.h that Swift's Objective-C interop needs: the root
// class NSObject and the basic types. Declarations only; nothing here is ever run.
#pragma once

typedef signed char BOOL;
typedef struct objc_class *Class;
typedef struct objc_selector *SEL;
typedef long NSInteger;
typedef unsigned long NSUInteger;

#define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")

NS_ASSUME_NONNULL_BEGIN

@class NSString;

@protocol NSObject
- (BOOL)isEqual:(nullable id)object;
@property (readonly) NSUInteger hash;
@property (readonly, copy) NSString *description;
@end

__attribute__((objc_root_class))
@interface NSObject <NSObject>
+ (instancetype)alloc;
+ (instancetype)new;
- (instancetype)init;
- (BOOL)isEqual:(nullable id)object;
@property (readonly) NSUInteger hash;
@property (readonly, copy) NSString *description;
@end

NS_ASSUME_NONNULL_END
